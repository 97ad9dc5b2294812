import type { Queryable } from './queryable.js';

/*
 * The platform owner's administration of users and organizations: searchable lists,
 * details with counts, and the organization columns only the owner changes (plan, granted
 * subscription, rate limits). The audit log is platform-audit.ts.
 */

const USER_COLUMNS = [
  'id',
  'name',
  'email',
  'handle',
  'is_platform_owner',
  'created_at',
  'deleted_at',
] as const;

/** `%q%` for a case-insensitive LIKE on text stored lower-cased (emails, handles) and on lower(name). */
const likePattern = (q: string) => `%${q.toLowerCase()}%`;

/** A user as the administration shows them (deleted ones included), or undefined. */
export async function findUserForAdmin(db: Queryable, userId: string) {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', userId).executeTakeFirst();
}

/**
 * Users newest first (by id); `before` is a cursor, `q` keeps those whose email, handle
 * or name contains it, whatever its case.
 */
export async function listUsersForAdmin(
  db: Queryable,
  options: { limit: number; before?: string; q?: string },
) {
  let query = db.selectFrom('users').select(USER_COLUMNS).orderBy('id', 'desc').limit(options.limit);
  if (options.before !== undefined) query = query.where('id', '<', options.before);
  if (options.q !== undefined) {
    const like = likePattern(options.q);
    query = query.where((eb) =>
      eb.or([
        eb('email', 'like', like),
        eb('handle', 'like', like),
        eb(eb.fn('lower', ['name']), 'like', like),
      ]),
    );
  }
  return query.execute();
}

/** The organizations a user belongs to, with their plan and the user's role. */
export async function listOrgsOfUserForAdmin(db: Queryable, userId: string) {
  return db
    .selectFrom('org_members')
    .innerJoin('orgs', 'orgs.id', 'org_members.org_id')
    .select(['orgs.id', 'orgs.handle', 'orgs.name', 'orgs.plan', 'org_members.role'])
    .where('org_members.user_id', '=', userId)
    .execute();
}

/** How many workspaces the user is a member of. */
export async function countWorkspaceMembershipsOfUser(db: Queryable, userId: string): Promise<number> {
  const row = await db
    .selectFrom('workspace_members')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The user's sessions unexpired at `at`, most recently active first. */
export async function listLiveSessionsOfUser(db: Queryable, userId: string, at: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'device', 'ip', 'created_at', 'last_active_at', 'impersonated_by'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', at)
    .orderBy('last_active_at', 'desc')
    .execute();
}

/** Organizations with their member and live-workspace counts (counts may be text on PostgreSQL). */
function orgSummaries(db: Queryable) {
  return db.selectFrom('orgs').select((eb) => [
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
}

export type OrgSummaryRow = Awaited<ReturnType<ReturnType<typeof orgSummaries>['executeTakeFirstOrThrow']>>;

/** One organization's summary, or undefined. */
export async function findOrgSummary(db: Queryable, orgId: string): Promise<OrgSummaryRow | undefined> {
  return orgSummaries(db).where('orgs.id', '=', orgId).executeTakeFirst();
}

/**
 * Organization summaries newest first (by id); `before` is a cursor, `q` keeps those whose
 * handle or name contains it, whatever its case.
 */
export async function listOrgSummaries(
  db: Queryable,
  options: { limit: number; before?: string; q?: string },
): Promise<OrgSummaryRow[]> {
  let query = orgSummaries(db).orderBy('orgs.id', 'desc').limit(options.limit);
  if (options.before !== undefined) query = query.where('orgs.id', '<', options.before);
  if (options.q !== undefined) {
    const like = likePattern(options.q);
    query = query.where((eb) =>
      eb.or([eb('orgs.handle', 'like', like), eb(eb.fn('lower', ['orgs.name']), 'like', like)]),
    );
  }
  return query.execute();
}

/** An organization by id or handle, with the columns the owner changes, or undefined. */
export async function findOrgByIdOrHandle(db: Queryable, idOrHandle: string) {
  return db
    .selectFrom('orgs')
    .select(['id', 'handle', 'plan', 'subscription_override', 'rate_limits'])
    .where((eb) => eb.or([eb('id', '=', idOrHandle), eb('handle', '=', idOrHandle)]))
    .executeTakeFirst();
}

/** The organization's live workspaces by slug, each with its page count. */
export async function listLiveWorkspacesWithPageCounts(
  db: Queryable,
  orgId: string,
): Promise<Array<{ id: string; slug: string; name: string; created_at: string; page_count: number }>> {
  const rows = await db
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
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .orderBy('slug')
    .execute();
  return rows.map((w) => ({ ...w, page_count: Number(w.page_count ?? 0) }));
}

/** The columns of an organization the platform owner sets. */
export interface OrgAdminColumns {
  plan?: string;
  subscription_override?: string | null;
  rate_limits?: string | null;
}

export async function updateOrgAdminColumns(db: Queryable, orgId: string, changes: OrgAdminColumns) {
  await db.updateTable('orgs').set(changes).where('id', '=', orgId).execute();
}
