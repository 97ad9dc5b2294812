import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { requirePlatformOwner } from '../../domain/platform-policy.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { RATE_BUCKETS, type BucketName } from '../../ratelimit/buckets.js';
import type { Store } from '../../store/database.js';
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

  const summary = db.selectFrom('orgs').select((eb) => [
    'orgs.id',
    'orgs.handle',
    'orgs.name',
    'orgs.plan',
    'orgs.created_at',
    'orgs.subscription_override',
    eb
      .selectFrom('org_members')
      .select((e) => e.fn.countAll<string | number>().as('n'))
      .whereRef('org_members.org_id', '=', 'orgs.id')
      .as('member_count'),
    eb
      .selectFrom('workspaces')
      .select((e) => e.fn.countAll<string | number>().as('n'))
      .whereRef('workspaces.org_id', '=', 'orgs.id')
      .where('workspaces.deleted_at', 'is', null)
      .as('workspace_count'),
  ]);

  type SummaryRow = Awaited<ReturnType<typeof summary.executeTakeFirstOrThrow>>;
  const present = (r: SummaryRow) => ({
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
    const row = await db
      .selectFrom('orgs')
      .select(['id', 'handle', 'plan', 'subscription_override', 'rate_limits'])
      .where((eb) => eb.or([eb('id', '=', idOrHandle), eb('handle', '=', idOrHandle)]))
      .executeTakeFirst();
    if (!row) throw notFound('Organization');
    return row;
  }

  async function get(actor: Actor, idOrHandle: string) {
    requirePlatformOwner(actor, 'read');
    const org = await find(idOrHandle);
    const row = await summary.where('orgs.id', '=', org.id).executeTakeFirstOrThrow();
    const workspaces = await db
      .selectFrom('workspaces')
      .select((eb) => [
        'workspaces.id',
        'workspaces.slug',
        'workspaces.name',
        'workspaces.created_at',
        eb
          .selectFrom('pages')
          .select((e) => e.fn.countAll<string | number>().as('n'))
          .whereRef('pages.workspace_id', '=', 'workspaces.id')
          .as('page_count'),
      ])
      .where('org_id', '=', org.id)
      .where('deleted_at', 'is', null)
      .orderBy('slug')
      .execute();
    const superadmins = await db
      .selectFrom('org_members')
      .innerJoin('users', 'users.id', 'org_members.user_id')
      .select(['users.id', 'users.name', 'users.email'])
      .where('org_members.org_id', '=', org.id)
      .where('org_members.role', '=', 'superadmin')
      .execute();
    return {
      ...present(row),
      rate_limits: parse<Record<string, number>>(org.rate_limits) ?? {},
      workspace_list: workspaces.map((w) => ({ ...w, page_count: Number(w.page_count ?? 0) })),
      superadmins,
    };
  }

  /** Writes one change of an organization and its audit entry in one transaction. */
  async function change(
    actor: Actor,
    idOrHandle: string,
    action: string,
    set: Record<string, string | null>,
    details: Record<string, unknown>,
  ) {
    requirePlatformOwner(actor, 'write');
    const org = await find(idOrHandle);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('orgs').set(set).where('id', '=', org.id).execute();
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
      const row = await db
        .selectFrom('orgs')
        .select('rate_limits')
        .where('id', '=', orgId)
        .executeTakeFirst();
      const limits = parse<Record<string, number>>(row?.rate_limits);
      if (limitsCache.size > 10_000) limitsCache.clear();
      limitsCache.set(orgId, { limits, until: Date.now() + RATE_LIMITS_TTL_MS });
      return limits;
    },

    /** Newest first, 20 at a time; `q` filters by handle or name. */
    async list(actor: Actor, input: z.infer<typeof listOrgsInput>) {
      requirePlatformOwner(actor, 'read');
      let query = summary.orderBy('orgs.id', 'desc').limit(input.limit + 1);
      if (input.cursor) query = query.where('orgs.id', '<', input.cursor);
      if (input.q) {
        const like = `%${input.q.toLowerCase()}%`;
        query = query.where((eb) =>
          eb.or([eb('orgs.handle', 'like', like), eb(eb.fn('lower', ['orgs.name']), 'like', like)]),
        );
      }
      const rows = await query.execute();
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
