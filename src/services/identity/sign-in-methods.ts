import { conflict } from '../../errors.js';
import { hasOtherIdentity } from '../../store/repositories/identities.js';
import { hasOtherPasskey } from '../../store/repositories/passkeys.js';
import type { Queryable } from '../../store/repositories/queryable.js';
import { findUserById } from '../../store/repositories/users.js';

/** One of the ways into an account that its owner is about to remove. */
export type SignInMethod = { identity: string } | { passkey: string };

/**
 * Refuses to remove an account's last way to sign in: with no password, no other linked
 * identity and no other passkey, the owner would be locked out for good (CONFLICT, with
 * `verb` naming what they tried: "unlink", "delete").
 */
export async function keepOneWayIn(
  db: Queryable,
  userId: string,
  removing: SignInMethod,
  verb: string,
): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) throw new Error(`No user ${userId} to keep a way in for`);
  if (user.password_hash) return;
  const other =
    (await hasOtherIdentity(db, userId, 'identity' in removing ? removing.identity : undefined)) ||
    (await hasOtherPasskey(db, userId, 'passkey' in removing ? removing.passkey : undefined));
  if (!other) {
    throw conflict(`This is your only way to sign in. Set a password first, then ${verb} it.`);
  }
}
