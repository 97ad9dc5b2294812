import type { Kysely } from 'kysely';
import { conflict } from '../../errors.js';
import type { Database } from '../../store/schema.js';

/** One of the ways into an account that its owner is about to remove. */
export type SignInMethod = { identity: string } | { passkey: string };

/**
 * Refuses to remove an account's last way to sign in: with no password, no other linked
 * identity and no other passkey, the owner would be locked out for good (CONFLICT, with
 * `verb` naming what they tried: "unlink", "delete").
 */
export async function keepOneWayIn(
  db: Kysely<Database>,
  userId: string,
  removing: SignInMethod,
  verb: string,
): Promise<void> {
  const user = await db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (user.password_hash) return;
  let identities = db.selectFrom('user_identities').select('id').where('user_id', '=', userId);
  if ('identity' in removing) identities = identities.where('id', '!=', removing.identity);
  let passkeys = db.selectFrom('passkey_credentials').select('id').where('user_id', '=', userId);
  if ('passkey' in removing) passkeys = passkeys.where('id', '!=', removing.passkey);
  const other =
    (await identities.limit(1).executeTakeFirst()) ?? (await passkeys.limit(1).executeTakeFirst());
  if (!other) {
    throw conflict(`This is your only way to sign in. Set a password first, then ${verb} it.`);
  }
}
