import type { Kysely } from 'kysely';

/**
 * Cloud billing.
 *
 * - `billing_subscriptions`: one row per organization that has been to Stripe: its
 *   customer, subscription, plan and status, the grace period after a failed payment and
 *   `state_at`, the Stripe time of the newest event applied (events can arrive out of order).
 * - `stripe_events`: each event id once (Stripe resends), with what was done with it; the
 *   primary key is what makes processing idempotent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('billing_subscriptions')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('orgs.id').onDelete('cascade'))
    .addColumn('stripe_customer_id', 'text', (c) => c.unique())
    .addColumn('stripe_subscription_id', 'text')
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('current_period_end', 'text')
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('grace_until', 'text')
    .addColumn('state_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('stripe_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('org_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stripe_events_received').on('stripe_events').column('received_at').execute();
}
