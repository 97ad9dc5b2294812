import type { WorkspaceRow } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * The `workspaces` table. Deletion is soft (`deleted_at`): the `findLive…` and `listLive…`
 * functions leave deleted workspaces out, the others see them too. The settings column is
 * read and written through workspace-settings.ts.
 */

/** A live workspace by id or slug. */
export function findLive(db: Queryable, idOrSlug: string): Promise<WorkspaceRow | undefined> {
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrSlug), eb('slug', '=', idOrSlug)]))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A live workspace by id. */
export function findLiveById(db: Queryable, id: string): Promise<WorkspaceRow | undefined> {
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A live workspace by slug. */
export function findLiveBySlug(db: Queryable, slug: string): Promise<WorkspaceRow | undefined> {
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where('slug', '=', slug)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A workspace by id, soft-deleted or not. */
export function findById(db: Queryable, id: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether a workspace (live or soft-deleted) has this id. */
export async function existsWithId(db: Queryable, id: string): Promise<boolean> {
  return (
    (await db.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
  );
}

/** Whether a workspace (live or soft-deleted) holds this slug; slugs are never reused. */
export async function isSlugTaken(db: Queryable, slug: string): Promise<boolean> {
  return (
    (await db.selectFrom('workspaces').select('id').where('slug', '=', slug).executeTakeFirst()) !== undefined
  );
}

/** The slugs (live or soft-deleted) that are `base` or start with `base-`. */
export async function listSlugsLike(db: Queryable, base: string): Promise<string[]> {
  const rows = await db
    .selectFrom('workspaces')
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute();
  return rows.map((r) => r.slug);
}

/** The live workspaces ordered by slug, or only the one with `slug` when given. */
export function listLive(db: Queryable, options: { slug?: string } = {}): Promise<WorkspaceRow[]> {
  let query = db.selectFrom('workspaces').selectAll().where('deleted_at', 'is', null);
  if (options.slug !== undefined) query = query.where('slug', '=', options.slug);
  return query.orderBy('slug').execute();
}

/** Those of `ids` that name live (not soft-deleted) workspaces. */
export async function listLiveIdsAmong(db: Queryable, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('workspaces')
    .select('id')
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((w) => w.id);
}

/** Ids of the live workspaces that have a git remote to sync with. */
export async function listLiveIdsWithRemote(db: Queryable): Promise<string[]> {
  const rows = await db
    .selectFrom('workspaces')
    .select('id')
    .where('deleted_at', 'is', null)
    .where('git_remote', 'is not', null)
    .execute();
  return rows.map((r) => r.id);
}

/** The workspaces (live or soft-deleted) of these organizations. */
export async function listByOrgs(db: Queryable, orgIds: readonly string[]): Promise<WorkspaceRow[]> {
  if (orgIds.length === 0) return [];
  return db.selectFrom('workspaces').selectAll().where('org_id', 'in', orgIds).execute();
}

/** Adds a workspace row. */
export async function insertRow(db: Queryable, row: WorkspaceRow): Promise<void> {
  await db.insertInto('workspaces').values(row).execute();
}

/** Moves every workspace of the `from` organizations into organization `to`. */
export async function moveToOrg(db: Queryable, from: readonly string[], to: string): Promise<void> {
  if (from.length === 0) return;
  await db.updateTable('workspaces').set({ org_id: to }).where('org_id', 'in', from).execute();
}

/** Marks the workspace deleted at `at`; its row stays so its slug is never reused. */
export async function softDelete(db: Queryable, id: string, at: string): Promise<void> {
  await db.updateTable('workspaces').set({ deleted_at: at, updated_at: at }).where('id', '=', id).execute();
}

/**
 * Sets `updated_at`. Inside a transaction this also locks the row, so a read that follows
 * sees what a concurrent writer committed before it.
 */
export async function touch(db: Queryable, id: string, at: string): Promise<void> {
  await db.updateTable('workspaces').set({ updated_at: at }).where('id', '=', id).execute();
}

/** The stored sync status, or undefined when there is no such workspace. */
export async function findSyncStatus(db: Queryable, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('workspaces').select('sync_status').where('id', '=', id).executeTakeFirst();
  return row?.sync_status;
}

/**
 * Sets the sync status, only from `from` when it is given; answers whether the stored
 * status changed (so the caller announces only real changes).
 */
export async function updateSyncStatus(
  db: Queryable,
  id: string,
  status: string,
  options: { from?: string } = {},
): Promise<boolean> {
  const result = await db
    .updateTable('workspaces')
    .set({ sync_status: status })
    .where('id', '=', id)
    .where('sync_status', options.from === undefined ? '!=' : '=', options.from ?? status)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Which workspaces a listing may show: those of `orgIds` or with one of `ids`, and only of `onlyOrg` when given. */
export interface Among {
  orgIds: readonly string[];
  ids: readonly string[];
  onlyOrg?: string;
}

/**
 * Live workspaces with their organization's handle, ordered by id, after the id `after`,
 * at most `limit`; restricted to `among` when given (all live workspaces otherwise).
 */
export function listLiveWithOrgHandle(
  db: Queryable,
  options: { among?: Among; after?: string; limit: number },
): Promise<Array<WorkspaceRow & { org_handle: string }>> {
  let query = db
    .selectFrom('workspaces')
    .innerJoin('orgs', 'orgs.id', 'workspaces.org_id')
    .selectAll('workspaces')
    .select('orgs.handle as org_handle')
    .where('workspaces.deleted_at', 'is', null);
  const among = options.among;
  if (among) {
    query = query.where((eb) =>
      eb.or([
        ...(among.orgIds.length ? [eb('workspaces.org_id', 'in', among.orgIds)] : []),
        ...(among.ids.length ? [eb('workspaces.id', 'in', among.ids)] : []),
      ]),
    );
    if (among.onlyOrg !== undefined) query = query.where('workspaces.org_id', '=', among.onlyOrg);
  }
  if (options.after !== undefined) query = query.where('workspaces.id', '>', options.after);
  return query.orderBy('workspaces.id').limit(options.limit).execute();
}

/** Sets the git remote and branch the workspace syncs with (a null remote: no sync). */
export async function updateRemote(
  db: Queryable,
  id: string,
  remote: { git_remote: string | null; git_branch: string; updated_at: string },
): Promise<void> {
  await db.updateTable('workspaces').set(remote).where('id', '=', id).execute();
}

/** Live workspaces syncing with a remote on `branch`: what a shared-secret push webhook may concern. */
export function listLiveWithRemoteOnBranch(
  db: Queryable,
  branch: string,
): Promise<Array<Pick<WorkspaceRow, 'id' | 'git_remote' | 'git_branch'>>> {
  return db
    .selectFrom('workspaces')
    .select(['id', 'git_remote', 'git_branch'])
    .where('deleted_at', 'is', null)
    .where('git_remote', 'is not', null)
    .where('git_branch', '=', branch)
    .execute();
}
