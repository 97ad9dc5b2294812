import type { Actor } from '../../domain/actor.js';
import { forbidden, unauthorized } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken, sha256Hex } from '../../lib/secrets.js';
import type { Store } from '../../store/database.js';
import {
  deleteExpiredWsTickets,
  insertWsTicket,
  takeWsTicket,
} from '../../store/repositories/auth-tokens.js';
import { findUserById } from '../../store/repositories/users.js';

/** Layouts B and C: a WebSocket ticket lives 30 seconds and opens one socket. */
export const WS_TICKET_SECONDS = 30;

const TICKET_PREFIX = 'wst_';

/**
 * Whether a credential is a ticket rather than the one-hour cookie token (`v1.…`): Layout B's
 * `svc_ws_token` cookie carries a ticket, so `/ws` spends it instead of verifying it.
 */
export function isWsTicket(value: string | undefined): value is string {
  return value !== undefined && value.startsWith(TICKET_PREFIX);
}

/**
 * The older layouts' WebSocket tickets: Layout C's `POST /api/v1/auth/ws-ticket` answers one
 * and `/ws?ticket=` spends it; Layout B's `POST /api/auth/ws-token` sets one as the
 * `svc_ws_token` cookie and the upgrade presenting that cookie spends it. Stored in the
 * database (only a SHA-256 of the ticket, which is 256 random bits, so a lookup by hash needs
 * no constant-time comparison) so any instance sharing the database accepts a ticket another
 * issued, and a delete-returning spend makes it single use across instances too.
 */
export function createWsTickets(deps: { store: Store; clock: Clock }) {
  const db = deps.store.db;

  /** The actor behind a ticket's user and session, if the session has not ended since. */
  async function actorFor(row: {
    user_id: string;
    org_id: string;
    session_id: string | null;
    session_epoch: number;
  }): Promise<Actor> {
    const user = await findUserById(db, row.user_id);
    if (!user || user.session_epoch !== row.session_epoch) throw unauthorized('This session has ended');
    return {
      userId: row.user_id,
      orgId: row.org_id,
      scopes: null,
      via: 'cookie',
      isPlatformOwner: user.is_platform_owner === 1,
      displayName: user.name,
      email: user.email,
      ...(row.session_id ? { sessionId: row.session_id } : {}),
    };
  }

  return {
    /** A new ticket for the signed-in session of `actor`; 403 for API keys, as for the cookie. */
    async issue(actor: Actor): Promise<{ ticket: string; expires_in: number }> {
      if (actor.via !== 'jwt' && actor.via !== 'cookie') {
        throw forbidden('A WebSocket ticket needs a signed-in session, not an API key');
      }
      const user = await findUserById(db, actor.userId);
      if (!user) throw unauthorized('This session has ended');
      const now = deps.clock.now();
      const ticket = `${TICKET_PREFIX}${randomToken(32)}`;
      // Spent and expired tickets of everyone are cleared on the way; the table stays small.
      await deleteExpiredWsTickets(db, now.toISOString());
      await insertWsTicket(db, {
        ticket_hash: sha256Hex(ticket),
        user_id: actor.userId,
        org_id: actor.orgId,
        session_id: actor.sessionId ?? null,
        session_epoch: user.session_epoch,
        expires_at: new Date(now.getTime() + WS_TICKET_SECONDS * 1000).toISOString(),
      });
      return { ticket, expires_in: WS_TICKET_SECONDS };
    },

    /**
     * Spends a ticket: the actor it was issued to, and a check that their session is still
     * open (for the socket's later re-authentication). 401 for an unknown, spent or
     * expired ticket, or a session ended since.
     */
    async redeem(ticket: string): Promise<{ actor: Actor; recheck: () => Promise<Actor> }> {
      const spent = await takeWsTicket(db, sha256Hex(ticket));
      if (!spent || spent.expires_at <= deps.clock.now().toISOString()) {
        throw unauthorized('The WebSocket ticket is unknown, used or expired');
      }
      const actor = await actorFor(spent);
      return { actor, recheck: () => actorFor(spent) };
    },
  };
}

export type WsTickets = ReturnType<typeof createWsTickets>;
