import type { Insertable } from 'kysely';
import type { SyncConflictRow, WorkspaceSyncTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * What Folio remembers of a workspace's sync with its git remote: `workspace_sync` (the last
 * success and error, the HTTPS credentials, sealed) and `sync_conflicts` (the conflicts of
 * pulls, open while `resolved_at` is null).
 */

/** The open conflicts of a workspace, oldest first. */
export function listOpenConflicts(db: Queryable, workspaceId: string): Promise<SyncConflictRow[]> {
  return db
    .selectFrom('sync_conflicts')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('resolved_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Whether a conflict (open or not) of the page already uses this stamp. */
export async function isConflictStampTaken(db: Queryable, pageId: string, stamp: string): Promise<boolean> {
  const row = await db
    .selectFrom('sync_conflicts')
    .select('id')
    .where('page_id', '=', pageId)
    .where('stamp', '=', stamp)
    .executeTakeFirst();
  return row !== undefined;
}

/** A conflict by its page and stamp, the address of its artefacts. */
export function findConflictByStamp(
  db: Queryable,
  pageId: string,
  stamp: string,
): Promise<SyncConflictRow | undefined> {
  return db
    .selectFrom('sync_conflicts')
    .selectAll()
    .where('page_id', '=', pageId)
    .where('stamp', '=', stamp)
    .executeTakeFirst();
}

/** A conflict of the workspace by id. */
export function findConflict(
  db: Queryable,
  workspaceId: string,
  conflictId: string,
): Promise<SyncConflictRow | undefined> {
  return db
    .selectFrom('sync_conflicts')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', conflictId)
    .executeTakeFirst();
}

/** Records a conflict. */
export async function insertConflict(db: Queryable, row: SyncConflictRow): Promise<void> {
  await db.insertInto('sync_conflicts').values(row).execute();
}

/** Closes a conflict: when, by whom (null: Folio itself) and how. */
export async function closeConflict(
  db: Queryable,
  conflictId: string,
  closing: { resolved_at: string; resolved_by: string | null; resolution: string },
): Promise<void> {
  await db.updateTable('sync_conflicts').set(closing).where('id', '=', conflictId).execute();
}

/**
 * The remote side's hash of the latest conflict on `path` closed with one of `resolutions`;
 * undefined when there is none (null is a remote side that deleted the file).
 */
export async function findLatestResolvedTheirsHash(
  db: Queryable,
  workspaceId: string,
  path: string,
  resolutions: readonly string[],
): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('sync_conflicts')
    .select('theirs_hash')
    .where('workspace_id', '=', workspaceId)
    .where('path', '=', path)
    .where('resolution', 'in', resolutions)
    .orderBy('resolved_at', 'desc')
    .executeTakeFirst();
  return row?.theirs_hash;
}

/** The stored HTTPS credentials of a workspace's remote (the password sealed). */
export function findSyncCredentials(
  db: Queryable,
  workspaceId: string,
): Promise<{ git_username: string | null; git_password: string | null } | undefined> {
  return db
    .selectFrom('workspace_sync')
    .select(['git_username', 'git_password'])
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

/** Fields of a workspace's sync record that writers set (the workspace id keys it). */
export type SyncRecordFields = Omit<Insertable<WorkspaceSyncTable>, 'workspace_id'> & { updated_at: string };

/** Creates the workspace's sync record with `fields`, or sets them on the existing one. */
export async function upsertSyncRecord(
  db: Queryable,
  workspaceId: string,
  fields: SyncRecordFields,
): Promise<void> {
  await db
    .insertInto('workspace_sync')
    .values({ workspace_id: workspaceId, ...fields })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet(fields))
    .execute();
}

/** Forgets the HTTPS credentials, noting when; a workspace without a sync record is left alone. */
export async function clearSyncCredentials(db: Queryable, workspaceId: string, at: string): Promise<void> {
  await db
    .updateTable('workspace_sync')
    .set({ git_username: null, git_password: null, credentials_updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .execute();
}

/** What a sync summary shows of a workspace's record (the password only to tell whether one is set). */
export interface SyncSummaryRow {
  workspace_id: string;
  last_sync_at: string | null;
  last_error: string | null;
  git_username: string | null;
  git_password: string | null;
}

/** The sync records of these workspaces (those never synced have none). */
export async function listSyncSummaryRows(
  db: Queryable,
  workspaceIds: readonly string[],
): Promise<SyncSummaryRow[]> {
  if (workspaceIds.length === 0) return [];
  return db
    .selectFrom('workspace_sync')
    .select(['workspace_id', 'last_sync_at', 'last_error', 'git_username', 'git_password'])
    .where('workspace_id', 'in', workspaceIds)
    .execute();
}

/** How many conflicts are open, in every workspace. */
export async function countOpenConflicts(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('sync_conflicts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
