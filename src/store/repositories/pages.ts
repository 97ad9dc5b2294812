import { inBatches } from '../batches.js';
import type { PageRow } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * The `pages` table: the index of the page files (the files are the
 * truth). Every statement on it lives here; services pass the store's handle or
 * their transaction.
 */

/** The page indexed at `path` in the workspace. */
export function findByPath(db: Queryable, workspaceId: string, path: string): Promise<PageRow | undefined> {
  return db
    .selectFrom('pages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('path', '=', path)
    .executeTakeFirst();
}

/** The page with this id in the workspace. */
export function findById(db: Queryable, workspaceId: string, id: string): Promise<PageRow | undefined> {
  return db
    .selectFrom('pages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The page with this id, whichever workspace holds it (ids are unique across workspaces). */
export function findByIdAnywhere(db: Queryable, id: string): Promise<PageRow | undefined> {
  return db.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The page that moved away from `oldPath` (an alias there points at it), where it is now. */
export function findMovedFrom(
  db: Queryable,
  workspaceId: string,
  oldPath: string,
): Promise<PageRow | undefined> {
  return db
    .selectFrom('page_aliases')
    .innerJoin('pages', 'pages.id', 'page_aliases.page_id')
    .selectAll('pages')
    .where('page_aliases.workspace_id', '=', workspaceId)
    .where('page_aliases.old_path', '=', oldPath)
    .where('pages.workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

/** Every page row of the workspace, in no particular order. */
export function listByWorkspace(db: Queryable, workspaceId: string): Promise<PageRow[]> {
  return db.selectFrom('pages').selectAll().where('workspace_id', '=', workspaceId).execute();
}

/** The fields the page tree is built from, for every page of the workspace. */
export function listTreeRows(
  db: Queryable,
  workspaceId: string,
): Promise<Array<Pick<PageRow, 'id' | 'path' | 'title' | 'sort_order' | 'restricted'>>> {
  return db
    .selectFrom('pages')
    .select(['id', 'path', 'title', 'sort_order', 'restricted'])
    .where('workspace_id', '=', workspaceId)
    .execute();
}

/** The workspace's rows by path. */
export async function mapByPath(db: Queryable, workspaceId: string): Promise<Map<string, PageRow>> {
  return new Map((await listByWorkspace(db, workspaceId)).map((r) => [r.path, r]));
}

/**
 * The workspace's pages ordered by path; restricted pages (strict frontmatter mode) only
 * when `includeRestricted`, for callers who may see them.
 */
export function listOrderedByPath(
  db: Queryable,
  workspaceId: string,
  options: { includeRestricted: boolean },
): Promise<PageRow[]> {
  let query = db.selectFrom('pages').selectAll().where('workspace_id', '=', workspaceId);
  if (!options.includeRestricted) query = query.where('restricted', '=', 0);
  return query.orderBy('path').execute();
}

/** The workspace's published, unrestricted pages (what a site or a version shows), by path. */
export function listPublished(db: Queryable, workspaceId: string): Promise<PageRow[]> {
  return db
    .selectFrom('pages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'published')
    .where('restricted', '=', 0)
    .orderBy('path')
    .execute();
}

/**
 * The workspace's published pages (restricted ones too) with the name of the user who last
 * saved each; `name` is null where no user is recorded (an edit that came through git) or
 * the user is gone.
 */
export function listPublishedPathsWithEditorName(
  db: Queryable,
  workspaceId: string,
): Promise<Array<{ path: string; name: string | null }>> {
  return db
    .selectFrom('pages')
    .leftJoin('users', 'users.id', 'pages.updated_by')
    .select(['pages.path', 'users.name'])
    .where('pages.workspace_id', '=', workspaceId)
    .where('pages.status', '=', 'published')
    .execute();
}

/** The workspace's unrestricted pages that are not published yet, by path. */
export function listDrafts(db: Queryable, workspaceId: string): Promise<PageRow[]> {
  return db
    .selectFrom('pages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('status', '!=', 'published')
    .where('restricted', '=', 0)
    .orderBy('path')
    .execute();
}

/** The rows among `ids` in the workspace (ids of other workspaces are left out). */
export async function listByIds(
  db: Queryable,
  workspaceId: string,
  ids: readonly string[],
): Promise<PageRow[]> {
  if (ids.length === 0) return [];
  const rows: PageRow[] = [];
  for (const part of inBatches(ids)) {
    rows.push(
      ...(await db
        .selectFrom('pages')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', part)
        .execute()),
    );
  }
  return rows;
}

/** Which of `ids` pages of other workspaces already use (a file copied between workspaces). */
export async function idsUsedElsewhere(
  db: Queryable,
  workspaceId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const taken = new Set<string>();
  for (const part of inBatches(ids)) {
    const rows = await db
      .selectFrom('pages')
      .select('id')
      .where('id', 'in', part)
      .where('workspace_id', '!=', workspaceId)
      .execute();
    for (const r of rows) taken.add(r.id);
  }
  return taken;
}

/**
 * A short text that changes whenever the workspace's pages do, so a cache built from them
 * knows when to rebuild: the workspace's revision, which every write below raises in the
 * caller's transaction.
 */
export async function changeFingerprint(db: Queryable, workspaceId: string): Promise<string> {
  const row = await db
    .selectFrom('page_revisions')
    .select('revision')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return String(row?.revision ?? 0);
}

/** Raises the revision of each workspace named. */
async function noteChanged(db: Queryable, workspaceIds: Iterable<string>): Promise<void> {
  for (const workspace_id of new Set(workspaceIds)) {
    await db
      .insertInto('page_revisions')
      .values({ workspace_id, revision: 1 })
      .onConflict((oc) =>
        oc.column('workspace_id').doUpdateSet((eb) => ({ revision: eb('page_revisions.revision', '+', 1) })),
      )
      .execute();
  }
}

/** Raises the revision of the workspaces holding these pages (before they are deleted). */
async function noteChangedPages(db: Queryable, ids: readonly string[]): Promise<void> {
  const workspaces = new Set<string>();
  for (const part of inBatches(ids)) {
    const rows = await db
      .selectFrom('pages')
      .select('workspace_id')
      .distinct()
      .where('id', 'in', part)
      .execute();
    for (const r of rows) workspaces.add(r.workspace_id);
  }
  await noteChanged(db, workspaces);
}

/** Adds a row; its path must be free (see `deleteAtPath`). */
export async function insertRow(db: Queryable, row: PageRow): Promise<void> {
  await db.insertInto('pages').values(row).execute();
  await noteChanged(db, [row.workspace_id]);
}

/** Replaces every column of the row with the same id. */
export async function replaceRow(db: Queryable, row: PageRow): Promise<void> {
  const { id, ...rest } = row;
  await db.updateTable('pages').set(rest).where('id', '=', id).execute();
  await noteChanged(db, [row.workspace_id]);
}

/**
 * Inserts or replaces many rows by id, a batch per statement. It does not free paths:
 * rows leaving a path another row takes must be deleted first.
 */
export async function upsertRows(db: Queryable, rows: readonly PageRow[]): Promise<void> {
  for (const batch of inBatches(rows)) {
    await db
      .insertInto('pages')
      .values(batch)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          workspace_id: eb.ref('excluded.workspace_id'),
          path: eb.ref('excluded.path'),
          title: eb.ref('excluded.title'),
          description: eb.ref('excluded.description'),
          tags: eb.ref('excluded.tags'),
          status: eb.ref('excluded.status'),
          sort_order: eb.ref('excluded.sort_order'),
          content_hash: eb.ref('excluded.content_hash'),
          frontmatter_hash: eb.ref('excluded.frontmatter_hash'),
          frontmatter_error: eb.ref('excluded.frontmatter_error'),
          restricted: eb.ref('excluded.restricted'),
          created_at: eb.ref('excluded.created_at'),
          updated_at: eb.ref('excluded.updated_at'),
          updated_by: eb.ref('excluded.updated_by'),
        })),
      )
      .execute();
  }
  await noteChanged(
    db,
    rows.map((r) => r.workspace_id),
  );
}

/** A page's new path and body hash after a move (or a link rewrite a move caused). */
export async function updateLocation(
  db: Queryable,
  row: Pick<PageRow, 'id' | 'workspace_id' | 'path' | 'content_hash' | 'updated_at' | 'updated_by'>,
): Promise<void> {
  await db
    .updateTable('pages')
    .set({
      path: row.path,
      content_hash: row.content_hash,
      updated_at: row.updated_at,
      updated_by: row.updated_by,
    })
    .where('id', '=', row.id)
    .execute();
  await noteChanged(db, [row.workspace_id]);
}

/** A page's new `order` (and the frontmatter hash it changed) after a reorder. */
export async function updateSortOrder(
  db: Queryable,
  row: Pick<PageRow, 'id' | 'workspace_id' | 'sort_order' | 'frontmatter_hash' | 'updated_at' | 'updated_by'>,
): Promise<void> {
  await db
    .updateTable('pages')
    .set({
      sort_order: row.sort_order,
      frontmatter_hash: row.frontmatter_hash,
      updated_at: row.updated_at,
      updated_by: row.updated_by,
    })
    .where('id', '=', row.id)
    .execute();
  await noteChanged(db, [row.workspace_id]);
}

/** Removes the row at `path` (a stale one whose file is gone), except the page `exceptId`. */
export async function deleteAtPath(
  db: Queryable,
  workspaceId: string,
  path: string,
  options: { exceptId?: string } = {},
): Promise<void> {
  let query = db.deleteFrom('pages').where('workspace_id', '=', workspaceId).where('path', '=', path);
  if (options.exceptId !== undefined) query = query.where('id', '!=', options.exceptId);
  const { numDeletedRows } = await query.executeTakeFirst();
  if (numDeletedRows > 0n) await noteChanged(db, [workspaceId]);
}

/** Removes the rows with these ids, a batch per statement. */
export async function deleteByIds(db: Queryable, ids: readonly string[]): Promise<void> {
  await noteChangedPages(db, ids);
  for (const part of inBatches(ids)) await db.deleteFrom('pages').where('id', 'in', part).execute();
}

/** Removes the aliases (old paths) that lead to page `pageId`. */
export async function deleteAliasesOf(db: Queryable, pageId: string): Promise<void> {
  await db.deleteFrom('page_aliases').where('page_id', '=', pageId).execute();
}
