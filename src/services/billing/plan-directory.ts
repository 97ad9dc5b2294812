import { type PlanId, planGranted, planOf, type QuotaName } from '../../domain/plans.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/database.js';
import * as billing from '../../store/repositories/billing.js';
import type { Queryable } from '../../store/repositories/queryable.js';

const SEAT_ROLES = ['editor', 'admin', 'superadmin'];

/**
 * How long a plan looked up for rate limiting is reused. The limits that count (seats,
 * pages, workspaces) always read the database; only the per-request rate tier is cached.
 */
const TIER_CACHE_MS = 5_000;

/**
 * An organization's effective plan and what it uses. `orgs.plan` holds the plan bought or
 * set by the platform owner; a subscription past its grace period after a failed payment
 * grants Free whatever that column says (it is never rewritten, so paying again restores it).
 */
export function createPlanDirectory(deps: { store: Store; clock: Clock }) {
  const db = deps.store.db;
  const tiers = new Map<string, { plan: PlanId; at: number }>();

  async function planIdOf(orgId: string, trx: Queryable = db): Promise<PlanId> {
    const org = await billing.findOrgPlanColumns(trx, orgId);
    const override = overrideOf(org?.subscription_override);
    // A subscription the platform owner granted wins over billing until it expires.
    if (override && !override.expired) return override.plan;
    const sub = await billing.findSubscriptionOfOrg(trx, orgId);
    // Once a grant expires, the organization has what it pays for, and no more.
    const plan = override ? planOf(sub?.plan).id : planOf(org?.plan).id;
    // The platform owner's Enterprise (and Free) do not depend on Stripe.
    if (plan === 'enterprise' || plan === 'free') return plan;
    if (!sub) return plan;
    return planGranted({ plan, status: sub.status, grace_until: sub.grace_until }, deps.clock.now());
  }

  /** The platform owner's grant stored on the organization (`{ plan, expires_at }`), or null. */
  function overrideOf(raw: string | null | undefined): { plan: PlanId; expired: boolean } | null {
    if (!raw) return null;
    try {
      const grant = JSON.parse(raw) as { plan?: unknown; expires_at?: unknown };
      const plan = planOf(typeof grant.plan === 'string' ? grant.plan : undefined).id;
      const expiresAt = typeof grant.expires_at === 'string' ? Date.parse(grant.expires_at) : NaN;
      return { plan, expired: Number.isFinite(expiresAt) && expiresAt <= deps.clock.now().getTime() };
    } catch {
      return null;
    }
  }

  /** Everyone holding an editor-or-higher seat, by email, plus pending invitations to such roles. */
  async function seatHolders(orgId: string): Promise<Set<string>> {
    const supers = await billing.listSuperAdminEmails(db, orgId);
    const members = await billing.listWorkspaceMemberEmailsWithRoles(db, orgId, SEAT_ROLES);
    // An invitation reserves its seat until it is accepted, revoked or expired.
    const invited = await billing.listOpenInvitationEmailsWithRoles(
      db,
      orgId,
      SEAT_ROLES,
      deps.clock.now().toISOString(),
    );
    return new Set([...supers, ...members, ...invited].map((email) => email.toLowerCase()));
  }

  const usage = {
    workspaces: (orgId: string) => billing.countLiveWorkspacesOfOrg(db, orgId),
    pages: (orgId: string) => billing.countPagesOfOrg(db, orgId),
    editors: async (orgId: string) => (await seatHolders(orgId)).size,
  } satisfies Record<QuotaName, (orgId: string) => Promise<number>>;

  return {
    /** The plan whose limits apply to the organization now. */
    planIdOf,

    /** The plan for a request's rate tier: looked up at most every few seconds per organization. */
    async tierOf(orgId: string): Promise<PlanId> {
      const cached = tiers.get(orgId);
      if (cached && Date.now() - cached.at < TIER_CACHE_MS) return cached.plan;
      const plan = await planIdOf(orgId);
      tiers.set(orgId, { plan, at: Date.now() });
      if (tiers.size > 10_000) tiers.delete(tiers.keys().next().value as string);
      return plan;
    },

    /** Forgets cached tiers after a plan changes in this process. */
    forget(orgId: string): void {
      tiers.delete(orgId);
    },

    seatHolders,
    usage,

    /** A user's email, lower-cased, to compare with seat holders; undefined for no or an unknown user. */
    async emailOf(userId: string | undefined): Promise<string | undefined> {
      if (userId === undefined) return undefined;
      return (await billing.findUserEmail(db, userId))?.toLowerCase();
    },

    /**
     * Throws 403 PLAN_LIMIT_REACHED with `details: { limit, current, plan }` unless the
     * organization may have one more of `quota` (`current` is what it has now).
     */
    async requireRoom(orgId: string, quota: QuotaName, current?: number): Promise<void> {
      const plan = planOf(await planIdOf(orgId));
      const limit = plan.limits[quota];
      if (limit === null) return;
      const used = current ?? (await usage[quota](orgId));
      if (used < limit) return;
      throw new AppError('PLAN_LIMIT_REACHED', limitMessage(quota, limit, plan.name), {
        details: { limit, current: used, plan: plan.id, quota },
      });
    },
  };
}

export type PlanDirectory = ReturnType<typeof createPlanDirectory>;

function limitMessage(quota: QuotaName, limit: number, planName: string): string {
  const what = { workspaces: 'workspaces', editors: 'editor seats', pages: 'pages' }[quota];
  return `The ${planName} plan includes ${limit} ${what}; upgrade to add more`;
}
