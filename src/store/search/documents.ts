import { inBatches } from '../batches.js';
import type { SearchDocumentsTable } from '../schema.js';
import type { Queryable } from '../repositories/queryable.js';

/*
 * The portable `search_documents` table (migration 0003): one row per indexed page, the same
 * on SQLite and PostgreSQL. Each dialect's own structures over it (SQLite's FTS table,
 * PostgreSQL's generated vector) live beside this file.
 */

/**
 * Inserts or replaces pages' rows, a batch per statement; ON CONFLICT works the same on
 * SQLite and PostgreSQL. Other columns of an existing row (SQLite's `fts_rowid`) are kept.
 */
export async function upsertDocumentRows(
  db: Queryable,
  rows: readonly SearchDocumentsTable[],
): Promise<void> {
  for (const batch of inBatches(rows)) {
    await db
      .insertInto('search_documents')
      .values(batch)
      .onConflict((oc) =>
        oc.column('page_id').doUpdateSet((eb) => ({
          workspace_id: eb.ref('excluded.workspace_id'),
          path: eb.ref('excluded.path'),
          title: eb.ref('excluded.title'),
          description: eb.ref('excluded.description'),
          tags: eb.ref('excluded.tags'),
          body: eb.ref('excluded.body'),
          status: eb.ref('excluded.status'),
          restricted: eb.ref('excluded.restricted'),
        })),
      )
      .execute();
  }
}

/** Deletes the rows of these pages (one statement: callers batch long lists). */
export async function deleteDocumentRows(db: Queryable, pageIds: readonly string[]): Promise<void> {
  if (pageIds.length === 0) return;
  await db.deleteFrom('search_documents').where('page_id', 'in', pageIds).execute();
}

/** Deletes the rows of every page of a workspace. */
export async function deleteWorkspaceDocumentRows(db: Queryable, workspaceId: string): Promise<void> {
  await db.deleteFrom('search_documents').where('workspace_id', '=', workspaceId).execute();
}

/** A page's portable row, without the dialects' own columns; undefined when it is not indexed. */
export function findDocumentRow(db: Queryable, pageId: string): Promise<SearchDocumentsTable | undefined> {
  return db
    .selectFrom('search_documents')
    .select([
      'page_id',
      'workspace_id',
      'path',
      'title',
      'description',
      'tags',
      'body',
      'status',
      'restricted',
    ])
    .where('page_id', '=', pageId)
    .executeTakeFirst();
}
