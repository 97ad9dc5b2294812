import type { Insertable, Selectable } from 'kysely';
import type { RefreshTokensTable, SessionsTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * `sessions` and `refresh_tokens`: a session is a chain of refresh tokens. Every token ever
 * issued keeps its row (only its SHA-256), so a spent one coming back is recognised.
 */

export type SessionRow = Selectable<SessionsTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;
export type NewSession = Insertable<SessionsTable>;

/** Opens a session. */
export async function insertSession(db: Queryable, row: NewSession): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** A session by id. */
export function findSessionById(db: Queryable, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The user's sessions that expire after `now` and were opened under JWT key `keyId`,
 * most recently active first.
 */
export function listLiveSessionsOfUser(
  db: Queryable,
  userId: string,
  options: { now: string; keyId: string },
): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('expires_at', '>', options.now)
    .where('key_id', '=', options.keyId)
    .orderBy('last_active_at', 'desc')
    .execute();
}

/** Records activity on a session; answers false when the session is gone. */
export async function touchSession(
  db: Queryable,
  id: string,
  activity: { last_active_at: string; ip: string; device: string },
): Promise<boolean> {
  const result = await db.updateTable('sessions').set(activity).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes every session of the user. */
export async function deleteSessionsOfUser(db: Queryable, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

/** Stores a newly issued refresh token (its hash). */
export async function insertRefreshToken(db: Queryable, row: RefreshTokenRow): Promise<void> {
  await db.insertInto('refresh_tokens').values(row).execute();
}

/** A refresh token by the SHA-256 of its value, spent or not. */
export function findRefreshToken(db: Queryable, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  return db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Marks an unspent refresh token spent at `at`. A conditional update: of two concurrent
 * spends of one token only one answers true.
 */
export async function spendRefreshToken(db: Queryable, tokenHash: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ used_at: at })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes every refresh token of the user. */
export async function deleteRefreshTokensOfUser(db: Queryable, userId: string): Promise<void> {
  await db.deleteFrom('refresh_tokens').where('user_id', '=', userId).execute();
}
