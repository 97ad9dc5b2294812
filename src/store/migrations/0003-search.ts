import type { Kysely } from 'kysely';

/**
 * The portable half of the search index: one row per indexed page with the text and the
 * fields results are filtered on. The dialect-only halves (SQLite's FTS5 virtual table and
 * its rowid column, PostgreSQL's weighted tsvector column and GIN index) are created by
 * `SearchIndex.init()` in src/search/, idempotently at every start: migrations have no dialect branches
 * keeps migrations free of dialect branches, so nothing dialect-specific lives here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_documents')
    .addColumn('page_id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('restricted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('search_documents_workspace')
    .on('search_documents')
    .columns(['workspace_id', 'status'])
    .execute();
}
