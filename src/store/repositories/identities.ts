import type { Selectable } from 'kysely';
import type { AuthClaimsTable, AuthFlowsTable, UserIdentitiesTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * Sign-in through identity providers: the accounts linked at a provider (`user_identities`,
 * unique by provider and subject), the sign-ins begun and awaiting their callback
 * (`auth_flows`) and what a callback established until the web app claims it
 * (`auth_claims`). Flows and claims are kept by hashes of their secrets only.
 */

export type UserIdentityRow = Selectable<UserIdentitiesTable>;
export type AuthFlowRow = Selectable<AuthFlowsTable>;
export type AuthClaimRow = Selectable<AuthClaimsTable>;

/** Links an account at a provider to a user; a (provider, subject) linked already fails. */
export async function insertUserIdentity(db: Queryable, row: UserIdentityRow): Promise<void> {
  await db.insertInto('user_identities').values(row).execute();
}

/** The identity linked for this provider's subject. */
export function findIdentityBySubject(
  db: Queryable,
  provider: string,
  subject: string,
): Promise<UserIdentityRow | undefined> {
  return db
    .selectFrom('user_identities')
    .selectAll()
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

/** The identity `id` when it is linked to `userId`. */
export function findIdentityOfUser(
  db: Queryable,
  id: string,
  userId: string,
): Promise<UserIdentityRow | undefined> {
  return db
    .selectFrom('user_identities')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The identities linked to the user, oldest first. */
export function listIdentitiesOfUser(db: Queryable, userId: string): Promise<UserIdentityRow[]> {
  return db
    .selectFrom('user_identities')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Whether the user has a linked identity other than `except` (any identity without it). */
export async function hasOtherIdentity(db: Queryable, userId: string, except?: string): Promise<boolean> {
  let query = db.selectFrom('user_identities').select('id').where('user_id', '=', userId);
  if (except !== undefined) query = query.where('id', '!=', except);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** Records a sign-in through the identity. */
export async function touchIdentity(db: Queryable, id: string, at: string): Promise<void> {
  await db.updateTable('user_identities').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** Unlinks an identity. */
export async function deleteIdentity(db: Queryable, id: string): Promise<void> {
  await db.deleteFrom('user_identities').where('id', '=', id).execute();
}

/** Stores a begun provider sign-in. */
export async function insertAuthFlow(db: Queryable, row: AuthFlowRow): Promise<void> {
  await db.insertInto('auth_flows').values(row).execute();
}

/** Deletes every begun sign-in (of anyone) that expired at or before `now`. */
export async function deleteExpiredAuthFlows(db: Queryable, now: string): Promise<void> {
  await db.deleteFrom('auth_flows').where('expires_at', '<=', now).execute();
}

/** Takes the begun sign-in with this state hash, expired or not: answers it and deletes it. */
export async function takeAuthFlow(db: Queryable, stateHash: string): Promise<AuthFlowRow | undefined> {
  const flow = await db
    .selectFrom('auth_flows')
    .selectAll()
    .where('state_hash', '=', stateHash)
    .executeTakeFirst();
  if (flow) await db.deleteFrom('auth_flows').where('state_hash', '=', flow.state_hash).execute();
  return flow;
}

/** Stores what a callback established, under the hash of the code that claims it. */
export async function insertAuthClaim(db: Queryable, row: AuthClaimRow): Promise<void> {
  await db.insertInto('auth_claims').values(row).execute();
}

/** The claim with this code hash, used, expired or not. */
export function findAuthClaim(db: Queryable, codeHash: string): Promise<AuthClaimRow | undefined> {
  return db.selectFrom('auth_claims').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/** Marks an unused claim used at `at`; false when a concurrent request used it first. */
export async function consumeAuthClaim(db: Queryable, codeHash: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('auth_claims')
    .set({ used_at: at })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
