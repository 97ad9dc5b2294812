import type { Kysely } from 'kysely';

/**
 * The Cloud edition's GDPR and platform administration.
 *
 * - `users.deleted_at`: set when an account is deleted. The row stays, emptied of personal
 *   data and named "Deleted user", so pages, comments and activity keep an author.
 * - `sessions.impersonated_by`: the platform owner who opened the session as this user;
 *   the web app shows a banner while it is set.
 * - `orgs.subscription_override`: JSON `{ plan, expires_at, note }` set by the platform owner;
 *   while unexpired it decides the organization's plan whatever the payment provider says.
 *   (`orgs.plan`, default 'free', exists since 0001 and is what "change plan" writes.)
 * - `orgs.rate_limits`: JSON `{ bucket: limit }`, the platform owner's per-organization
 *   replacements of the API's limits.
 * - `admin_audit`: every action of the platform owner's administration, append-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('deleted_at', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('impersonated_by', 'text').execute();
  await db.schema.alterTable('orgs').addColumn('subscription_override', 'text').execute();
  await db.schema.alterTable('orgs').addColumn('rate_limits', 'text').execute();

  await db.schema
    .createTable('admin_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('admin_audit_target')
    .on('admin_audit')
    .columns(['target_type', 'target_id'])
    .execute();
}
