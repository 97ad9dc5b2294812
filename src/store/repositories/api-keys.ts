import type { Selectable } from 'kysely';
import type { ApiKeysTable, Flag } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * The `api_keys` table. Only an HMAC of each key is stored (`key_hash`), with its first
 * characters (`prefix`) to recognise it by; `scopes` is a JSON array.
 */

export type ApiKeyRow = Selectable<ApiKeysTable>;

/** A key with the handle of the organization it acts in. */
export type ApiKeyWithOrg = ApiKeyRow & { org_handle: string };

/** A key with whether its owner is the platform owner (what an actor needs). */
export type ApiKeyWithOwner = ApiKeyRow & {
  is_platform_owner: Flag;
  owner_name: string;
  owner_email: string;
};

const withOrgHandle = (db: Queryable) =>
  db
    .selectFrom('api_keys')
    .innerJoin('orgs', 'orgs.id', 'api_keys.org_id')
    .selectAll('api_keys')
    .select('orgs.handle as org_handle');

/** Stores a new key. */
export async function insertApiKey(db: Queryable, row: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

/** The key `id` when it belongs to `userId`. */
export function findApiKeyOfUser(
  db: Queryable,
  id: string,
  userId: string,
): Promise<ApiKeyWithOrg | undefined> {
  return withOrgHandle(db)
    .where('api_keys.id', '=', id)
    .where('api_keys.user_id', '=', userId)
    .executeTakeFirst();
}

/** The user's keys, newest first. */
export function listApiKeysOfUser(db: Queryable, userId: string): Promise<ApiKeyWithOrg[]> {
  return withOrgHandle(db)
    .where('api_keys.user_id', '=', userId)
    .orderBy('api_keys.created_at', 'desc')
    .execute();
}

/** Whether the user has created any key. */
export async function userHasApiKey(db: Queryable, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('api_keys')
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The key whose HMAC is `keyHash`, with its owner's platform-owner flag, name and email. */
export function findApiKeyByHash(db: Queryable, keyHash: string): Promise<ApiKeyWithOwner | undefined> {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .selectAll('api_keys')
    .select(['users.is_platform_owner', 'users.name as owner_name', 'users.email as owner_email'])
    .where('api_keys.key_hash', '=', keyHash)
    .executeTakeFirst();
}

/** Replaces the key's secret (its prefix and HMAC). */
export async function updateApiKeySecret(
  db: Queryable,
  id: string,
  secret: { prefix: string; key_hash: string },
): Promise<void> {
  await db.updateTable('api_keys').set(secret).where('id', '=', id).execute();
}

/** Records when the key was last used. */
export async function touchApiKey(db: Queryable, id: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** Deletes one key. */
export async function deleteApiKey(db: Queryable, id: string): Promise<void> {
  await db.deleteFrom('api_keys').where('id', '=', id).execute();
}

/** Deletes every key of the user. */
export async function deleteApiKeysOfUser(db: Queryable, userId: string): Promise<void> {
  await db.deleteFrom('api_keys').where('user_id', '=', userId).execute();
}
