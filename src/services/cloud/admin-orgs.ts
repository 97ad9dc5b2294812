import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { requirePlatformOwner } from '../../domain/platform-policy.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { RATE_BUCKETS, type BucketName } from '../../ratelimit/buckets.js';
import type { Store } from '../../store/database.js';
import { findOrgById, listOrgMemberUsers } from '../../store/repositories/orgs.js';
import * as orgsAdmin from '../../store/repositories/platform-admin.js';
import { adminPageInput, recordAudit } from './admin-audit.js';
import type { Download } from './gdpr.js';
import { exportOrganization } from './org-export.js';

/** The plans of the Cloud edition; `enterprise` is only ever set by the platform owner. */
export const PLANS = ['free', 'team', 'business', 'enterprise'] as const;
const plan = z.enum(PLANS, { error: `plan must be one of ${PLANS.join(', ')}` });

export const listOrgsInput = z.object({
  ...adminPageInput,
  q: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('Only organizations whose handle or name contains this.'),
});

export const setPlanInput = z.object({ plan });

/** A subscription the platform owner grants whatever the payment provider says, until `expires_at` (or for good). */
export const subscriptionOverrideInput = z.object({
  plan,
  expires_at: z.iso
    .datetime({ offset: true, error: 'expires_at must be an ISO 8601 date-time' })
    .nullable()
    .default(null),
  note: z.string().trim().max(500).default(''),
});

const bucket = z.enum(Object.keys(RATE_BUCKETS) as [BucketName, ...BucketName[]]);
/** Per-organization limits: a number replaces the bucket's limit in its usual window; null restores the default. */
export const rateLimitsInput = z.object({
  limits: z.partialRecord(bucket, z.number().int().min(1).max(1_000_000).nullable()),
});

/** A stored subscription override, as `subscriptionOverrideInput` wrote it. */
type SubscriptionOverride = z.output<typeof subscriptionOverrideInput>;

/** How long an organization's rate limits are remembered by each instance. */
const RATE_LIMITS_TTL_MS = 30_000;

const parse = <T>(text: string | null | undefined): T | null => (text ? (JSON.parse(text) as T) : null);

/** The platform owner's view of organizations: list, details, plan, subscription override, rate limits, export. */
export function createAdminOrgs(deps: {
  store: Store;
  clock: Clock;
  dataDir: string;
  /** Told after an organization's plan, grant or limits change (billing caches rate tiers). */
  onPlanChange?: (orgId: string) => void;
}) {
  const db = deps.store.db;
  const now = () => deps.clock.now().toISOString();
  // Every authenticated request asks for its organization's limits: read once per
  // RATE_LIMITS_TTL_MS (another instance's change shows within that time; this one's at once).
  const limitsCache = new Map<string, { limits: Record<string, number> | null; until: number }>();

  const present = (r: orgsAdmin.OrgSummaryRow) => ({
    id: r.id,
    handle: r.handle,
    name: r.name,
    plan: r.plan,
    subscription_override: parse<SubscriptionOverride>(r.subscription_override),
    members: Number(r.member_count ?? 0),
    workspaces: Number(r.workspace_count ?? 0),
    created_at: r.created_at,
  });

  /** An organization by id or handle. */
  async function find(idOrHandle: string) {
    const row = await orgsAdmin.findOrgByIdOrHandle(db, idOrHandle);
    if (!row) throw notFound('Organization');
    return row;
  }

  async function get(actor: Actor, idOrHandle: string) {
    requirePlatformOwner(actor, 'read');
    const org = await find(idOrHandle);
    const row = await orgsAdmin.findOrgSummary(db, org.id);
    if (!row) throw notFound('Organization');
    const workspaces = await orgsAdmin.listLiveWorkspacesWithPageCounts(db, org.id);
    const superadmins = (await listOrgMemberUsers(db, org.id, { role: 'superadmin' })).map((u) => ({
      id: u.user_id,
      name: u.name,
      email: u.email,
    }));
    return {
      ...present(row),
      rate_limits: parse<Record<string, number>>(org.rate_limits) ?? {},
      workspace_list: workspaces,
      superadmins,
    };
  }

  /** Writes one change of an organization and its audit entry in one transaction. */
  async function change(
    actor: Actor,
    idOrHandle: string,
    action: string,
    set: orgsAdmin.OrgAdminColumns,
    details: Record<string, unknown>,
  ) {
    requirePlatformOwner(actor, 'write');
    const org = await find(idOrHandle);
    await db.transaction().execute(async (trx) => {
      await orgsAdmin.updateOrgAdminColumns(trx, org.id, set);
      await recordAudit(trx, {
        actorId: actor.userId,
        action,
        targetType: 'org',
        targetId: org.id,
        details: { handle: org.handle, ...details },
        at: now(),
      });
    });
    deps.onPlanChange?.(org.id);
    return get(actor, org.id);
  }

  return {
    /** The organization's own rate limits (bucket -> limit), or null; cached briefly. */
    rateLimitsOf: async (orgId: string): Promise<Partial<Record<BucketName, number>> | null> => {
      const cached = limitsCache.get(orgId);
      if (cached && cached.until > Date.now()) return cached.limits;
      const limits = parse<Record<string, number>>((await findOrgById(db, orgId))?.rate_limits);
      if (limitsCache.size > 10_000) limitsCache.clear();
      limitsCache.set(orgId, { limits, until: Date.now() + RATE_LIMITS_TTL_MS });
      return limits;
    },

    /** Newest first, 20 at a time; `q` filters by handle or name. */
    async list(actor: Actor, input: z.infer<typeof listOrgsInput>) {
      requirePlatformOwner(actor, 'read');
      const rows = await orgsAdmin.listOrgSummaries(db, {
        limit: input.limit + 1,
        ...(input.cursor ? { before: input.cursor } : {}),
        ...(input.q ? { q: input.q } : {}),
      });
      const data = rows.slice(0, input.limit).map(present);
      return { data, next_cursor: rows.length > input.limit ? (data[data.length - 1]?.id ?? null) : null };
    },

    get,

    /** Changes the plan stored on the organization (`orgs.plan`). */
    async setPlan(actor: Actor, idOrHandle: string, input: z.infer<typeof setPlanInput>) {
      const org = await find(idOrHandle);
      return change(
        actor,
        org.id,
        'org_plan_changed',
        { plan: input.plan },
        { from: org.plan, to: input.plan },
      );
    },

    /** Grants a plan regardless of billing; it also becomes the stored plan at once. */
    async overrideSubscription(
      actor: Actor,
      idOrHandle: string,
      input: z.infer<typeof subscriptionOverrideInput>,
    ) {
      const override = { plan: input.plan, expires_at: input.expires_at, note: input.note, set_at: now() };
      return change(
        actor,
        idOrHandle,
        'org_subscription_overridden',
        { plan: input.plan, subscription_override: JSON.stringify(override) },
        { plan: input.plan, expires_at: input.expires_at, note: input.note },
      );
    },

    /** Ends an override; the plan stays until billing or the platform owner changes it. */
    async clearSubscriptionOverride(actor: Actor, idOrHandle: string) {
      return change(
        actor,
        idOrHandle,
        'org_subscription_override_cleared',
        { subscription_override: null },
        {},
      );
    },

    /** Replaces some of the organization's rate limits; null entries return to the default. */
    async setRateLimits(actor: Actor, idOrHandle: string, input: z.infer<typeof rateLimitsInput>) {
      const org = await find(idOrHandle);
      const limits: Record<string, number> = { ...(parse<Record<string, number>>(org.rate_limits) ?? {}) };
      for (const [name, value] of Object.entries(input.limits)) {
        if (value === null || value === undefined) delete limits[name];
        else limits[name] = value;
      }
      const stored = Object.keys(limits).length > 0 ? JSON.stringify(limits) : null;
      const result = await change(
        actor,
        org.id,
        'org_rate_limits_changed',
        { rate_limits: stored },
        { limits },
      );
      limitsCache.delete(org.id);
      return result;
    },

    /** The organization's export, as its Super Admins get it; the export is audited. */
    async exportOrg(actor: Actor, idOrHandle: string): Promise<Download> {
      requirePlatformOwner(actor, 'read');
      const org = await find(idOrHandle);
      const download = await exportOrganization(deps, org.id);
      await recordAudit(db, {
        actorId: actor.userId,
        action: 'org_exported',
        targetType: 'org',
        targetId: org.id,
        details: { handle: org.handle },
        at: now(),
      });
      return download;
    },
  };
}

export type AdminOrgs = ReturnType<typeof createAdminOrgs>;
