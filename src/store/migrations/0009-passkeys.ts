import type { Kysely } from 'kysely';

/**
 * Passkeys (WebAuthn).
 *
 * - `passkey_credentials` holds a user's registered credentials: the credential id and
 *   COSE public key (base64url text, as every dialect stores text alike), the signature
 *   counter for clone detection, and what the authenticator said about itself.
 * - `passkey_challenges` holds the challenge of a begun ceremony until its finish step
 *   uses it (once) or it expires; a registration's challenge names its user, a sign-in's
 *   names one only when an email hint was given.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkey_credentials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('device_type', 'text', (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema
    .createIndex('passkey_credentials_credential')
    .on('passkey_credentials')
    .column('credential_id')
    .unique()
    .execute();
  await db.schema
    .createIndex('passkey_credentials_user')
    .on('passkey_credentials')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('passkey_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
