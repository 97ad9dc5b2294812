import { inBatches } from '../batches.js';
import type { ActivityRow } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * The `activity` table: a workspace's feed, one row per change, ids ordered as written
 * (monotonic ULIDs), details as a JSON text.
 */

/** Adds one entry. */
export async function insertActivity(db: Queryable, row: ActivityRow): Promise<void> {
  await db.insertInto('activity').values(row).execute();
}

/** Adds many entries, a batch per statement. */
export async function insertActivities(db: Queryable, rows: readonly ActivityRow[]): Promise<void> {
  for (const batch of inBatches(rows)) await db.insertInto('activity').values(batch).execute();
}

/** Which entries of a workspace's feed to list; a page id wins over a path. */
export interface ActivityFilter {
  actions?: readonly string[];
  actorId?: string;
  pageId?: string;
  path?: string;
}

/** An entry with the acting user's current name (null for the system, or a user since removed). */
export type ActivityWithActorName = ActivityRow & { actor_name: string | null };

/** The workspace's entries matching `filter`, newest first, older than the id `before` when given, at most `limit`. */
export function listActivity(
  db: Queryable,
  workspaceId: string,
  filter: ActivityFilter,
  options: { before?: string; limit: number },
): Promise<ActivityWithActorName[]> {
  let query = db
    .selectFrom('activity')
    .leftJoin('users', 'users.id', 'activity.actor_id')
    .selectAll('activity')
    .select('users.name as actor_name')
    .where('activity.workspace_id', '=', workspaceId);
  if (filter.actions?.length) query = query.where('activity.action', 'in', filter.actions);
  if (filter.actorId) query = query.where('activity.actor_id', '=', filter.actorId);
  if (filter.pageId) query = query.where('activity.page_id', '=', filter.pageId);
  else if (filter.path) query = query.where('activity.path', '=', filter.path);
  if (options.before) query = query.where('activity.id', '<', options.before);
  return query.orderBy('activity.id', 'desc').limit(options.limit).execute();
}

/**
 * The id of the page that was once at `oldPath` (a move left an alias), whether or not the
 * page still exists: a deleted page's history is found by a path it had.
 */
export async function findPageIdOnceAt(
  db: Queryable,
  workspaceId: string,
  oldPath: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('page_aliases')
    .select('page_id')
    .where('workspace_id', '=', workspaceId)
    .where('old_path', '=', oldPath)
    .executeTakeFirst();
  return row?.page_id;
}

/**
 * The `page_created` entries of these pages in a workspace, oldest first: the first one of a
 * page names who created it.
 */
export async function listPageCreations(
  db: Queryable,
  workspaceId: string,
  pageIds: readonly string[],
): Promise<Array<{ page_id: string | null; actor_id: string | null }>> {
  if (pageIds.length === 0) return [];
  return db
    .selectFrom('activity')
    .select(['page_id', 'actor_id'])
    .where('workspace_id', '=', workspaceId)
    .where('action', '=', 'page_created')
    .where('page_id', 'in', pageIds)
    .orderBy('created_at')
    .execute();
}

/** The details (JSON text) of a page's `page_moved` entries written at or after `since`. */
export async function listPageMoveDetailsSince(
  db: Queryable,
  workspaceId: string,
  pageId: string,
  since: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('activity')
    .select('details')
    .where('workspace_id', '=', workspaceId)
    .where('page_id', '=', pageId)
    .where('action', '=', 'page_moved')
    .where('created_at', '>=', since)
    .execute();
  return rows.map((r) => r.details);
}
