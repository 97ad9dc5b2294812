import { type Selectable, sql } from 'kysely';
import { inBatches } from '../batches.js';
import type { DocVersionPagesTable, DocVersionsTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * Documentation versions: a row per version (its git tag and commit) and the pages it
 * froze, whose text is read back from the tag.
 */

export type DocVersionRow = Selectable<DocVersionsTable>;
export type DocVersionPageRow = Selectable<DocVersionPagesTable>;

/** The workspace's version with this slug, or undefined. */
export async function findVersionBySlug(
  db: Queryable,
  workspaceId: string,
  slug: string,
): Promise<DocVersionRow | undefined> {
  return db
    .selectFrom('doc_versions')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

/**
 * The workspace's versions, newest first; with `before`, only those with a smaller id
 * (a cursor), and with `limit`, at most that many.
 */
export async function listVersionsOfWorkspace(
  db: Queryable,
  workspaceId: string,
  options: { before?: string; limit?: number } = {},
): Promise<DocVersionRow[]> {
  let query = db.selectFrom('doc_versions').selectAll().where('workspace_id', '=', workspaceId);
  if (options.before !== undefined) query = query.where('id', '<', options.before);
  if (options.limit !== undefined) query = query.limit(options.limit);
  return query.orderBy('id', 'desc').execute();
}

/** Stores a version and the pages it froze. */
export async function insertVersionWithPages(
  db: Queryable,
  version: DocVersionRow,
  pages: ReadonlyArray<Omit<DocVersionPageRow, 'version_id'>>,
): Promise<void> {
  await db.insertInto('doc_versions').values(version).execute();
  for (const batch of inBatches(pages.map((p) => ({ ...p, version_id: version.id })))) {
    await db.insertInto('doc_version_pages').values(batch).execute();
  }
}

/** The pages a version froze, by path. */
export async function listPagesOfVersion(db: Queryable, versionId: string): Promise<DocVersionPageRow[]> {
  return db
    .selectFrom('doc_version_pages')
    .selectAll()
    .where('version_id', '=', versionId)
    .orderBy('path')
    .execute();
}

/** Deletes a version and its frozen pages (its git tag is the caller's). */
export async function deleteVersion(db: Queryable, versionId: string): Promise<void> {
  await db.deleteFrom('doc_version_pages').where('version_id', '=', versionId).execute();
  await db.deleteFrom('doc_versions').where('id', '=', versionId).execute();
}

/** A user's name and email, for the tagger of a version; undefined for an unknown user. */
export async function findTaggerIdentity(
  db: Queryable,
  userId: string,
): Promise<{ name: string; email: string } | undefined> {
  return db.selectFrom('users').select(['name', 'email']).where('id', '=', userId).executeTakeFirst();
}

/**
 * A short text that changes whenever the workspace gains or loses a version (their count
 * and newest id), for caches of the published site to notice.
 */
export async function versionsFingerprint(db: Queryable, workspaceId: string): Promise<string> {
  const row = await db
    .selectFrom('doc_versions')
    .select(sql<string>`count(*) || '/' || coalesce(max(id), '')`.as('f'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return row?.f ?? '';
}
