import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { PageViewsTable, SiteSearchesTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * The published sites' analytics: page views, site searches and the day's salt that
 * visitor hashes are made with. Counts come back as numbers on both databases (PostgreSQL
 * answers `count(*)` as a bigint in text).
 */

const num = (v: unknown): number => Number(v ?? 0) || 0;

/** The stored plan of an organization, or undefined for an unknown one. */
export async function findOrgPlan(db: Queryable, orgId: string): Promise<string | undefined> {
  return (await db.selectFrom('orgs').select('plan').where('id', '=', orgId).executeTakeFirst())?.plan;
}

/**
 * The salt of `day`: the stored one, else `candidate`, stored first. Instances racing on a
 * new day all end up with the one row that won.
 */
export async function takeDaySalt(db: Queryable, day: string, candidate: string): Promise<string> {
  await db
    .insertInto('analytics_salts')
    .values({ day, salt: candidate })
    .onConflict((oc) => oc.column('day').doNothing())
    .execute();
  const row = await db
    .selectFrom('analytics_salts')
    .select('salt')
    .where('day', '=', day)
    .executeTakeFirstOrThrow();
  return row.salt;
}

/** Deletes the salts of days before `day`, so their hashes can never be recomputed. */
export async function deleteSaltsBefore(db: Queryable, day: string): Promise<void> {
  await db.deleteFrom('analytics_salts').where('day', '<', day).execute();
}

export async function insertPageView(db: Queryable, row: Selectable<PageViewsTable>): Promise<void> {
  await db.insertInto('page_views').values(row).execute();
}

export async function insertSiteSearch(db: Queryable, row: Selectable<SiteSearchesTable>): Promise<void> {
  await db.insertInto('site_searches').values(row).execute();
}

/** Deletes views and searches of days before `day`; answers how many rows went. */
export async function deleteAnalyticsBefore(db: Queryable, day: string): Promise<number> {
  const views = await db.deleteFrom('page_views').where('day', '<', day).executeTakeFirst();
  const searches = await db.deleteFrom('site_searches').where('day', '<', day).executeTakeFirst();
  return num(views.numDeletedRows) + num(searches.numDeletedRows);
}

/** The most viewed paths of the workspace since `since` (a day), with distinct visitors. */
export async function topViewedPaths(
  db: Queryable,
  workspaceId: string,
  since: string,
  limit: number,
): Promise<Array<{ path: string; views: number; visitors: number }>> {
  const rows = await db
    .selectFrom('page_views')
    .select(['path', sql<number>`count(*)`.as('views'), sql<number>`count(distinct visitor)`.as('visitors')])
    .where('workspace_id', '=', workspaceId)
    .where('day', '>=', since)
    .groupBy('path')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('path')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ path: r.path, views: num(r.views), visitors: num(r.visitors) }));
}

/**
 * The most frequent searches of the workspace since `since`, with how many found nothing;
 * `onlyNoResults` keeps only the searches that found nothing.
 */
export async function topSearches(
  db: Queryable,
  workspaceId: string,
  since: string,
  options: { limit: number; onlyNoResults: boolean },
): Promise<Array<{ query: string; count: number; no_results: number }>> {
  const rows = await db
    .selectFrom('site_searches')
    .$if(options.onlyNoResults, (qb) => qb.where('results', '=', 0))
    .select([
      'query',
      sql<number>`count(*)`.as('count'),
      sql<number>`sum(case when results = 0 then 1 else 0 end)`.as('no_results'),
    ])
    .where('workspace_id', '=', workspaceId)
    .where('day', '>=', since)
    .groupBy('query')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('query')
    .limit(options.limit)
    .execute();
  return rows.map((r) => ({ query: r.query, count: num(r.count), no_results: num(r.no_results) }));
}

/** Views and distinct visitors of the workspace since `since`. */
export async function viewTotals(
  db: Queryable,
  workspaceId: string,
  since: string,
): Promise<{ views: number; visitors: number }> {
  const row = await db
    .selectFrom('page_views')
    .select([sql<number>`count(*)`.as('views'), sql<number>`count(distinct visitor)`.as('visitors')])
    .where('workspace_id', '=', workspaceId)
    .where('day', '>=', since)
    .executeTakeFirst();
  return { views: num(row?.views), visitors: num(row?.visitors) };
}

/** Views and distinct visitors per day since `since`, oldest day first (days with none left out). */
export async function dailyViews(
  db: Queryable,
  workspaceId: string,
  since: string,
): Promise<Array<{ day: string; views: number; visitors: number }>> {
  const rows = await db
    .selectFrom('page_views')
    .select(['day', sql<number>`count(*)`.as('views'), sql<number>`count(distinct visitor)`.as('visitors')])
    .where('workspace_id', '=', workspaceId)
    .where('day', '>=', since)
    .groupBy('day')
    .orderBy('day')
    .execute();
  return rows.map((d) => ({ day: d.day, views: num(d.views), visitors: num(d.visitors) }));
}

/** How many site searches the workspace had since `since`. */
export async function countSearches(db: Queryable, workspaceId: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('site_searches')
    .select(sql<number>`count(*)`.as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('day', '>=', since)
    .executeTakeFirst();
  return num(row?.n);
}
