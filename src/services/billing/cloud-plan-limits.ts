import { planOf } from '../../domain/plans.js';
import type { PlanLimits } from '../collab/plan-limits.js';
import type { PlanDirectory } from './plan-directory.js';

/**
 * The Cloud edition's PlanLimits: every check reads the organization's effective plan and
 * its usage from the database at the moment of the request, so an upgrade (or the fall
 * back to Free after a failed payment) applies at once.
 */
export function createCloudPlanLimits(plans: PlanDirectory): PlanLimits {
  return {
    async requireSeat(orgId, _role, candidate) {
      const holders = await plans.seatHolders(orgId);
      const email = candidate.email?.toLowerCase() ?? (await plans.emailOf(candidate.userId));
      // Someone who already holds a seat (or whose invitation reserves one) takes no new one.
      if (email !== undefined && holders.has(email)) return;
      await plans.requireRoom(orgId, 'editors', holders.size);
    },
    requireWorkspace: (orgId) => plans.requireRoom(orgId, 'workspaces'),
    requirePage: (orgId) => plans.requireRoom(orgId, 'pages'),
    allowsAnalytics: async (orgId) => planOf(await plans.planIdOf(orgId)).features.analytics,
  };
}
