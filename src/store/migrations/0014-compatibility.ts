import type { Kysely } from 'kysely';

/**
 * For the older layouts' clients (docs/compatibility.md):
 * - `users.terms_accepted`: whether the user accepted the terms at registration. Every
 *   account so far had to (the current layout requires it), hence the default of 1;
 *   Layout B's registration, which has no such field, records 0.
 * - `ws_tickets`: Layout C's 30-second, single-use WebSocket tickets, kept in the database
 *   so a ticket issued by one instance opens a socket on another. Only a hash is stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('terms_accepted', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('ws_tickets')
    .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('session_epoch', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ws_tickets_expires_at').on('ws_tickets').column('expires_at').execute();
}
