import type { Role } from '../../domain/policy.js';

/** Who would take a seat: a known user, or the address of an invitation. */
export interface SeatCandidate {
  userId?: string;
  email?: string;
}

/**
 * Plan limits the Cloud edition enforces. The Community edition has none; the
 * Cloud edition replaces this object with one backed by the organization's plan
 *, so
 * callers never ask which edition runs. Each `require…` throws 403
 * PLAN_LIMIT_REACHED with `details: { limit, current, plan }` when the plan is full.
 */
export interface PlanLimits {
  /**
   * Called before an invitation, share link or role change hands out an
   * editor-or-higher seat; someone who already holds a seat takes no new one.
   */
  requireSeat(orgId: string, role: Role, candidate: SeatCandidate): Promise<void>;
  /** Called before a workspace is created in the organization. */
  requireWorkspace(orgId: string): Promise<void>;
  /** Called before a page is created in one of the organization's workspaces. */
  requirePage(orgId: string): Promise<void>;
  /** Whether the organization's plan includes analytics (403 PLAN_LIMIT otherwise). */
  allowsAnalytics(orgId: string): Promise<boolean>;
}

/** The Community edition: no limits. */
export const communityPlanLimits: PlanLimits = {
  requireSeat: async () => undefined,
  requireWorkspace: async () => undefined,
  requirePage: async () => undefined,
  allowsAnalytics: async () => true,
};
