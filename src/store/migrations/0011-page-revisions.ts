import type { Kysely } from 'kysely';

/**
 * `page_revisions`: a counter per workspace, raised in the same transaction as every
 * change to its rows in `pages` (src/store/repositories/pages.ts). Caches built from the
 * index (the page tree, the published site) compare it to know they are current: one
 * key lookup, exact across instances, unlike timestamps from several clocks.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('page_revisions')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .execute();
}
