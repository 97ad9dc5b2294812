import { sql } from 'kysely';
import type { Queryable } from './queryable.js';

/*
 * The platform owner's figures and cross-organization lists: totals, growth per day, and
 * every custom domain with the workspace and organization it serves.
 */

const count = (row: { n: string | number | bigint } | undefined): number => Number(row?.n ?? 0);

/** Custom domains joined with the workspace and organization each serves. */
function domainsWithOwners(db: Queryable) {
  return db
    .selectFrom('custom_domains')
    .innerJoin('workspaces', 'workspaces.id', 'custom_domains.workspace_id')
    .innerJoin('orgs', 'orgs.id', 'workspaces.org_id')
    .select([
      'custom_domains.domain',
      'custom_domains.status',
      'custom_domains.verified_at',
      'custom_domains.checked_at',
      'custom_domains.created_at',
      'workspaces.id as workspace_id',
      'workspaces.slug as workspace',
      'orgs.handle as org',
    ]);
}

export type DomainWithOwnerRow = Awaited<
  ReturnType<ReturnType<typeof domainsWithOwners>['executeTakeFirstOrThrow']>
>;

/** One domain (exactly as stored) with its workspace and organization, or undefined. */
export async function findDomainWithOwner(
  db: Queryable,
  domain: string,
): Promise<DomainWithOwnerRow | undefined> {
  return domainsWithOwners(db).where('custom_domains.domain', '=', domain).executeTakeFirst();
}

/** Domains by name with their workspace and organization; `after` is a cursor (a domain). */
export async function listDomainsWithOwners(
  db: Queryable,
  options: { limit: number; after?: string },
): Promise<DomainWithOwnerRow[]> {
  let query = domainsWithOwners(db).orderBy('custom_domains.domain').limit(options.limit);
  if (options.after !== undefined) query = query.where('custom_domains.domain', '>', options.after);
  return query.execute();
}

/** Live users, organizations, live workspaces and pages, and organizations per stored plan. */
export async function platformTotals(db: Queryable) {
  const users = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  const orgs = await db
    .selectFrom('orgs')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  const workspaces = await db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  const pages = await db
    .selectFrom('pages')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  const plans = await db
    .selectFrom('orgs')
    .select(['plan', (eb) => eb.fn.countAll<string | number>().as('n')])
    .groupBy('plan')
    .execute();
  return {
    users: count(users),
    organizations: count(orgs),
    workspaces: count(workspaces),
    pages: count(pages),
    organizations_by_plan: Object.fromEntries(plans.map((p) => [p.plan, Number(p.n)])) as Record<
      string,
      number
    >,
  };
}

/** The UTC day (YYYY-MM-DD) of an ISO 8601 timestamp column. */
const dayOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

/** Sign-ups per UTC day from `since` (an ISO timestamp); days without any are left out. */
export async function signupsPerDay(db: Queryable, since: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('users')
    .select([dayOf('users.created_at').as('day'), (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('users.created_at', '>=', since)
    .groupBy(dayOf('users.created_at'))
    .execute();
  return new Map(rows.map((r) => [r.day, Number(r.n)]));
}

/**
 * Organizations with any activity in one of their workspaces, per UTC day from `since`;
 * days without any are left out.
 */
export async function activeOrgsPerDay(db: Queryable, since: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('activity')
    .innerJoin('workspaces', 'workspaces.id', 'activity.workspace_id')
    .select([
      dayOf('activity.created_at').as('day'),
      (eb) => eb.fn.count<string | number>('workspaces.org_id').distinct().as('n'),
    ])
    .where('activity.created_at', '>=', since)
    .groupBy(dayOf('activity.created_at'))
    .execute();
  return new Map(rows.map((r) => [r.day, Number(r.n)]));
}
