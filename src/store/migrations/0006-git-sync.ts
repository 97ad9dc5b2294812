import type { Kysely } from 'kysely';

/**
 * Git sync: each workspace's sync state (last success, last error, the HTTPS
 * credentials for its remote) and the merge conflicts a pull found. Portable
 * DDL only (text, integer), like 0001.
 *
 * The sync state is its own table rather than columns on `workspaces`, so the
 * workspace row (restored by `rebuild` from `.folio/workspace.json`) keeps its
 * shape; credentials cannot come back from files anyway. The password is
 * stored encrypted with a key kept in DATA_DIR, so a database dump alone does
 * not reveal it. `stamp` is the API's compact conflict timestamp
 * (20250115T103045Z); together with page_id it names the artefact folder.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workspace_sync')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('last_sync_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'text')
    .addColumn('git_username', 'text')
    .addColumn('git_password', 'text')
    .addColumn('credentials_updated_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sync_conflicts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('ours_hash', 'text')
    .addColumn('theirs_hash', 'text')
    .addColumn('stamp', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('resolution', 'text')
    .execute();
  await db.schema
    .createIndex('sync_conflicts_artefacts')
    .on('sync_conflicts')
    .columns(['page_id', 'stamp'])
    .unique()
    .execute();
  await db.schema
    .createIndex('sync_conflicts_workspace')
    .on('sync_conflicts')
    .columns(['workspace_id', 'resolved_at'])
    .execute();
}
