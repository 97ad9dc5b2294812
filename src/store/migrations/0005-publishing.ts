import type { Kysely } from 'kysely';

/**
 * Publishing: documentation versions, custom domains and the published site's
 * analytics. Portable DDL only (text, integer), like 0001.
 *
 * A version's frozen files live in the workspace's git repository under a tag;
 * `doc_version_pages` is the index of what was frozen, so a version lists and
 * routes without reading git. Analytics rows never hold an IP address: `visitor`
 * is a hash salted with a secret that is replaced every day (`analytics_salts`
 * keeps only the current day's), so yesterday's visitors cannot be re-identified.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('doc_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tag', 'text', (c) => c.notNull())
    .addColumn('commit_sha', 'text', (c) => c.notNull())
    .addColumn('page_count', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('doc_versions_slug')
    .on('doc_versions')
    .columns(['workspace_id', 'slug'])
    .unique()
    .execute();

  await db.schema
    .createTable('doc_version_pages')
    .addColumn('version_id', 'text', (c) => c.notNull().references('doc_versions.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('doc_version_pages_pk', ['version_id', 'path'])
    .execute();

  await db.schema
    .createTable('custom_domains')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull().unique())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'text')
    .addColumn('checked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('page_views')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('visitor', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('page_views_day').on('page_views').columns(['workspace_id', 'day']).execute();

  await db.schema
    .createTable('site_searches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('results', 'integer', (c) => c.notNull())
    .addColumn('visitor', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('site_searches_day')
    .on('site_searches')
    .columns(['workspace_id', 'day'])
    .execute();

  await db.schema
    .createTable('analytics_salts')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('salt', 'text', (c) => c.notNull())
    .execute();
}
