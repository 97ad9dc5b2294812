import { ulid } from 'ulid';
import { unauthorized } from '../../errors.js';
import type { Store } from '../../store/database.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken, sha256Hex } from '../../lib/secrets.js';

/** Refresh tokens live 7 days and rotate on every use. */
export const REFRESH_TOKEN_MS = 7 * 24 * 3600 * 1000;

export interface ClientInfo {
  device: string;
  ip: string;
}

/**
 * Sessions are refresh-token chains. Every token ever issued is kept (hashed)
 * so that a rotated one coming back is recognised as stolen and every session
 * of its user is revoked. A session is bound to the id of the JWT key it was
 * opened under: once the key is replaced, its refresh tokens stop working.
 */
export function createSessions(store: Store, clock: Clock, signingKeyId: () => Promise<string>) {
  const db = store.db;

  async function issueToken(sessionId: string, userId: string): Promise<string> {
    const token = randomToken(32);
    const now = clock.now();
    await db
      .insertInto('refresh_tokens')
      .values({
        token_hash: sha256Hex(token),
        session_id: sessionId,
        user_id: userId,
        expires_at: new Date(now.getTime() + REFRESH_TOKEN_MS).toISOString(),
        used_at: null,
        created_at: now.toISOString(),
      })
      .execute();
    return token;
  }

  /** Deletes every session and refresh token of the user and kills their access tokens. */
  async function revokeAll(userId: string): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('refresh_tokens').where('user_id', '=', userId).execute();
      await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      await trx
        .updateTable('users')
        .set((eb) => ({ session_epoch: eb('session_epoch', '+', 1) }))
        .where('id', '=', userId)
        .execute();
    });
  }

  return {
    revokeAll,

    /** Opens a session and answers its first refresh token. */
    async start(userId: string, client: ClientInfo): Promise<{ sessionId: string; refreshToken: string }> {
      const now = clock.now();
      const sessionId = ulid();
      await db
        .insertInto('sessions')
        .values({
          id: sessionId,
          user_id: userId,
          device: client.device.slice(0, 512),
          ip: client.ip,
          created_at: now.toISOString(),
          last_active_at: now.toISOString(),
          expires_at: new Date(now.getTime() + REFRESH_TOKEN_MS).toISOString(),
          key_id: await signingKeyId(),
        })
        .execute();
      return { sessionId, refreshToken: await issueToken(sessionId, userId) };
    },

    /**
     * Spends a refresh token and answers its successor. Two concurrent uses of
     * one token cannot both succeed: the spend is a conditional update.
     */
    async rotate(
      refreshToken: string,
      client: ClientInfo,
    ): Promise<{ userId: string; sessionId: string; refreshToken: string }> {
      const now = clock.now();
      const row = await db
        .selectFrom('refresh_tokens')
        .selectAll()
        .where('token_hash', '=', sha256Hex(refreshToken))
        .executeTakeFirst();
      if (!row) throw unauthorized('Invalid refresh token');
      const session = await db
        .selectFrom('sessions')
        .select('key_id')
        .where('id', '=', row.session_id)
        .executeTakeFirst();
      // Checked before the spend: a token of a retired key is dead, not a reuse.
      if (!session || session.key_id !== (await signingKeyId())) throw unauthorized('Session ended');
      if (row.used_at !== null) {
        await revokeAll(row.user_id);
        throw unauthorized('Refresh token reuse detected; all sessions were revoked');
      }
      if (row.expires_at <= now.toISOString()) throw unauthorized('Refresh token expired');
      const spent = await db
        .updateTable('refresh_tokens')
        .set({ used_at: now.toISOString() })
        .where('token_hash', '=', row.token_hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(spent.numUpdatedRows) !== 1) {
        await revokeAll(row.user_id);
        throw unauthorized('Refresh token reuse detected; all sessions were revoked');
      }
      const touched = await db
        .updateTable('sessions')
        .set({ last_active_at: now.toISOString(), ip: client.ip, device: client.device.slice(0, 512) })
        .where('id', '=', row.session_id)
        .executeTakeFirst();
      if (Number(touched.numUpdatedRows) !== 1) throw unauthorized('Session ended');
      return {
        userId: row.user_id,
        sessionId: row.session_id,
        refreshToken: await issueToken(row.session_id, row.user_id),
      };
    },

    /** The user's live sessions (unexpired, opened under the current key), newest first. */
    async list(userId: string) {
      return db
        .selectFrom('sessions')
        .select(['id', 'device', 'ip', 'created_at', 'last_active_at', 'expires_at'])
        .where('user_id', '=', userId)
        .where('expires_at', '>', clock.now().toISOString())
        .where('key_id', '=', await signingKeyId())
        .orderBy('last_active_at', 'desc')
        .execute();
    },

    /** Whether a session still exists (an access token names its session). */
    async exists(sessionId: string): Promise<boolean> {
      return !!(await db.selectFrom('sessions').select('id').where('id', '=', sessionId).executeTakeFirst());
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
