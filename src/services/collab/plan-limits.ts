import type { Role } from '../../domain/policy.js';

/**
 * Plan limits the Cloud edition enforces. The Community edition has none; the
 * Cloud edition replaces this object with one backed by the organization's plan
 * (CONTRACT.md 6: Free has 3 editors), so callers never ask which edition runs.
 */
export interface PlanLimits {
  /**
   * Whether the organization may take one more member with `role`. Called
   * before an invitation or share link hands out an editor-or-higher seat;
   * false answers 403 PLAN_LIMIT_REACHED.
   */
  checkSeat(orgId: string, role: Role): Promise<boolean>;
}

/** The Community edition: no seat limit. */
export const communityPlanLimits: PlanLimits = {
  checkSeat: async () => true,
};
