import type { Kysely } from 'kysely';

/**
 * Outbound webhooks.
 *
 * - `webhooks`: a workspace's receivers: URL, the events they want (JSON array), the signing
 *   secret sealed with DATA_DIR/webhook-secrets.key, whether deliveries are sent, and why
 *   they stopped (`failing_since` marks the first failure of an unbroken run of them).
 * - `webhook_deliveries`: the queue and the log at once. A row is `pending` until it is
 *   `delivered` or, after a day of retries, `failed`; `claimed_at` marks the instance
 *   sending it, so two instances never send one delivery twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('failing_since', 'text')
    .addColumn('deactivated_reason', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_workspace').on('webhooks').column('workspace_id').execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text')
    .addColumn('response_status', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_log')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at'])
    .execute();
}
