import { ulid } from 'ulid';
import { unauthorized } from '../../errors.js';
import type { Store } from '../../store/database.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken, sha256Hex } from '../../lib/secrets.js';
import * as sessionsTable from '../../store/repositories/sessions.js';
import { bumpSessionEpoch } from '../../store/repositories/users.js';

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
    await sessionsTable.insertRefreshToken(db, {
      token_hash: sha256Hex(token),
      session_id: sessionId,
      user_id: userId,
      expires_at: new Date(now.getTime() + REFRESH_TOKEN_MS).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    });
    return token;
  }

  /** Deletes every session and refresh token of the user and kills their access tokens. */
  async function revokeAll(userId: string): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await sessionsTable.deleteRefreshTokensOfUser(trx, userId);
      await sessionsTable.deleteSessionsOfUser(trx, userId);
      await bumpSessionEpoch(trx, userId);
    });
  }

  return {
    revokeAll,

    /** Opens a session and answers its first refresh token. */
    async start(userId: string, client: ClientInfo): Promise<{ sessionId: string; refreshToken: string }> {
      const now = clock.now();
      const sessionId = ulid();
      await sessionsTable.insertSession(db, {
        id: sessionId,
        user_id: userId,
        device: client.device.slice(0, 512),
        ip: client.ip,
        created_at: now.toISOString(),
        last_active_at: now.toISOString(),
        expires_at: new Date(now.getTime() + REFRESH_TOKEN_MS).toISOString(),
        key_id: await signingKeyId(),
      });
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
      const row = await sessionsTable.findRefreshToken(db, sha256Hex(refreshToken));
      if (!row) throw unauthorized('Invalid refresh token');
      const session = await sessionsTable.findSessionById(db, row.session_id);
      // Checked before the spend: a token of a retired key is dead, not a reuse.
      if (!session || session.key_id !== (await signingKeyId())) throw unauthorized('Session ended');
      if (row.used_at !== null) {
        await revokeAll(row.user_id);
        throw unauthorized('Refresh token reuse detected; all sessions were revoked');
      }
      if (row.expires_at <= now.toISOString()) throw unauthorized('Refresh token expired');
      if (!(await sessionsTable.spendRefreshToken(db, row.token_hash, now.toISOString()))) {
        await revokeAll(row.user_id);
        throw unauthorized('Refresh token reuse detected; all sessions were revoked');
      }
      const touched = await sessionsTable.touchSession(db, row.session_id, {
        last_active_at: now.toISOString(),
        ip: client.ip,
        device: client.device.slice(0, 512),
      });
      if (!touched) throw unauthorized('Session ended');
      return {
        userId: row.user_id,
        sessionId: row.session_id,
        refreshToken: await issueToken(row.session_id, row.user_id),
      };
    },

    /** The user's live sessions (unexpired, opened under the current key), newest first. */
    async list(userId: string) {
      return sessionsTable.listLiveSessionsOfUser(db, userId, {
        now: clock.now().toISOString(),
        keyId: await signingKeyId(),
      });
    },

    /** Whether a session still exists (an access token names its session). */
    async exists(sessionId: string): Promise<boolean> {
      return (await sessionsTable.findSessionById(db, sessionId)) !== undefined;
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
