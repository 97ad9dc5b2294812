import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import type { Actor } from '../../domain/actor.js';
import { forbidden, unauthorized } from '../../errors.js';
import type { Store } from '../../store/database.js';
import { findUserById } from '../../store/repositories/users.js';
import type { Clock } from '../../lib/clock.js';
import { safeEqual } from '../../lib/secrets.js';

/** The WebSocket cookie lives one hour. */
export const WS_TOKEN_SECONDS = 3600;

interface WsClaims {
  sub: string;
  org: string;
  sid: string;
  epoch: number;
  /** Expiry, Unix milliseconds. */
  exp: number;
}

/**
 * Mints and checks the value of the `svc_ws_token` cookie: an HMAC-SHA256
 * token (`v1.<claims>.<mac>`) naming the user and session, valid one hour. It
 * is never the access token itself, so the cookie cannot be replayed against
 * the API. The key is derived from the JWT key file, so instances sharing that
 * key accept each other's tokens and rotating it ends them all.
 */
export function createWsTokens(deps: {
  store: Store;
  clock: Clock;
  jwtKeyPath: string;
  /** Resolves once the JWT key file exists (the signer may still be generating it). */
  keyReady: () => Promise<void>;
}) {
  let key: Promise<Buffer> | null = null;
  const keyOnce = () =>
    (key ??= deps
      .keyReady()
      .then(() => fs.readFile(deps.jwtKeyPath))
      .then((pem) =>
        Buffer.from(crypto.hkdfSync('sha256', pem, Buffer.alloc(0), 'folio websocket cookie v1', 32)),
      ));
  const mac = async (data: string) =>
    crypto
      .createHmac('sha256', await keyOnce())
      .update(data)
      .digest('base64url');

  return {
    /**
     * A token bound to the signed-in session of `actor` and the user's current
     * session epoch. 403 for API keys and the system: the WebSocket cookie stands for a signed-in session.
     */
    async issue(actor: Actor): Promise<{ token: string; maxAge: number }> {
      if (actor.via !== 'jwt' && actor.via !== 'cookie') {
        throw forbidden('A WebSocket token needs a signed-in session, not an API key');
      }
      const user = await findUserById(deps.store.db, actor.userId);
      if (!user) throw unauthorized('This session has ended');
      const epoch = user.session_epoch;
      const claims: WsClaims = {
        sub: actor.userId,
        org: actor.orgId,
        sid: actor.sessionId ?? '',
        epoch,
        exp: deps.clock.now().getTime() + WS_TOKEN_SECONDS * 1000,
      };
      const body = `v1.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
      return { token: `${body}.${await mac(body)}`, maxAge: WS_TOKEN_SECONDS };
    },

    /**
     * The actor a cookie value stands for, or 401: a bad MAC (compared in
     * constant time), an expired token, or a session ended since (logout and
     * password reset move the user's session epoch).
     */
    async verify(token: string | undefined): Promise<Actor> {
      const parts = (token ?? '').split('.');
      if (parts.length !== 3 || parts[0] !== 'v1') throw unauthorized('A WebSocket token is required');
      const body = `${parts[0]}.${parts[1]}`;
      if (!safeEqual(await mac(body), parts[2]!)) throw unauthorized('Invalid WebSocket token');
      let claims: WsClaims;
      try {
        claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as WsClaims;
      } catch {
        throw unauthorized('Invalid WebSocket token');
      }
      if (typeof claims.exp !== 'number' || claims.exp <= deps.clock.now().getTime()) {
        throw unauthorized('The WebSocket token has expired');
      }
      const user = await findUserById(deps.store.db, String(claims.sub));
      if (!user || user.session_epoch !== claims.epoch) throw unauthorized('This session has ended');
      return {
        userId: claims.sub,
        orgId: claims.org,
        scopes: null,
        via: 'cookie',
        isPlatformOwner: user.is_platform_owner === 1,
        displayName: user.name,
        email: user.email,
        ...(claims.sid ? { sessionId: claims.sid } : {}),
      };
    },
  };
}
