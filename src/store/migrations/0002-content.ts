import type { Kysely } from 'kysely';

/**
 * Workspaces and pages: the page history (`GET …/page-activity`) looks
 * activity up by page_id, which 0001's (workspace_id, id) index cannot serve.
 * Portable DDL only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('activity_page').on('activity').columns(['workspace_id', 'page_id']).execute();
}
