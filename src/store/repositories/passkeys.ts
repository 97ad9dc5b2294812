import type { Selectable } from 'kysely';
import type { PasskeyChallengesTable, PasskeyCredentialsTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * Passkeys: the registered credentials (`passkey_credentials`, public keys only) and the
 * challenges of begun ceremonies (`passkey_challenges`), each used once.
 */

export type PasskeyCredentialRow = Selectable<PasskeyCredentialsTable>;
export type PasskeyChallengeRow = Selectable<PasskeyChallengesTable>;

/** PostgreSQL answers the bigint counter as a string; callers get the number the type promises. */
const numericCounter = (row: PasskeyCredentialRow): PasskeyCredentialRow => ({
  ...row,
  counter: Number(row.counter),
});

/** Stores a registered credential. */
export async function insertPasskeyCredential(db: Queryable, row: PasskeyCredentialRow): Promise<void> {
  await db.insertInto('passkey_credentials').values(row).execute();
}

/** The credential `id` when it belongs to `userId`. */
export async function findPasskeyOfUser(
  db: Queryable,
  id: string,
  userId: string,
): Promise<PasskeyCredentialRow | undefined> {
  const row = await db
    .selectFrom('passkey_credentials')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row && numericCounter(row);
}

/** The credential with this authenticator credential id (unique), whoever owns it. */
export async function findPasskeyByCredentialId(
  db: Queryable,
  credentialId: string,
): Promise<PasskeyCredentialRow | undefined> {
  const row = await db
    .selectFrom('passkey_credentials')
    .selectAll()
    .where('credential_id', '=', credentialId)
    .executeTakeFirst();
  return row && numericCounter(row);
}

/** The user's passkeys, oldest first. */
export async function listPasskeysOfUser(db: Queryable, userId: string): Promise<PasskeyCredentialRow[]> {
  const rows = await db
    .selectFrom('passkey_credentials')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(numericCounter);
}

/** How many passkeys the user has. */
export async function countPasskeysOfUser(db: Queryable, userId: string): Promise<number> {
  const row = await db
    .selectFrom('passkey_credentials')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether the user has a passkey other than `except` (any passkey without it). */
export async function hasOtherPasskey(db: Queryable, userId: string, except?: string): Promise<boolean> {
  let query = db.selectFrom('passkey_credentials').select('id').where('user_id', '=', userId);
  if (except !== undefined) query = query.where('id', '!=', except);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** Records a sign-in with the credential: its new signature counter and when. */
export async function recordPasskeyUse(
  db: Queryable,
  id: string,
  counter: number,
  at: string,
): Promise<void> {
  await db
    .updateTable('passkey_credentials')
    .set({ counter, last_used_at: at })
    .where('id', '=', id)
    .execute();
}

/** Renames a credential. */
export async function renamePasskey(db: Queryable, id: string, name: string): Promise<void> {
  await db.updateTable('passkey_credentials').set({ name }).where('id', '=', id).execute();
}

/** Deletes a credential. */
export async function deletePasskey(db: Queryable, id: string): Promise<void> {
  await db.deleteFrom('passkey_credentials').where('id', '=', id).execute();
}

/** Stores a begun ceremony's challenge. */
export async function insertPasskeyChallenge(db: Queryable, row: PasskeyChallengeRow): Promise<void> {
  await db.insertInto('passkey_challenges').values(row).execute();
}

/** Deletes every challenge (of anyone) that expired at or before `now`. */
export async function deleteExpiredPasskeyChallenges(db: Queryable, now: string): Promise<void> {
  await db.deleteFrom('passkey_challenges').where('expires_at', '<=', now).execute();
}

/**
 * Takes a challenge for `purpose`, expired or not: answers it and deletes it, or undefined
 * when there is none or a concurrent caller took it first.
 */
export async function takePasskeyChallenge(
  db: Queryable,
  challenge: string,
  purpose: PasskeyChallengeRow['purpose'],
): Promise<PasskeyChallengeRow | undefined> {
  const row = await db
    .selectFrom('passkey_challenges')
    .selectAll()
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  if (!row) return undefined;
  const deleted = await db
    .deleteFrom('passkey_challenges')
    .where('challenge', '=', challenge)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1 ? row : undefined;
}
