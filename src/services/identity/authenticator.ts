import type { Actor } from '../../domain/actor.js';
import { unauthorized } from '../../errors.js';
import type { Store } from '../../store/database.js';
import { findUserById } from '../../store/repositories/users.js';
import { API_KEY_PREFIX, type ApiKeys } from './api-keys.js';
import type { JwtSigner } from './jwt.js';

export interface Credentials {
  /** The value after `Bearer ` in Authorization. */
  bearer?: string | undefined;
  /** The access-token cookie. */
  accessCookie?: string | undefined;
}

/**
 * The one place that turns a bearer JWT, an API key or the access cookie
 * into an Actor. Absent credentials are anonymous (null); presented but
 * invalid ones are 401, so a client learns its token is bad.
 */
export function createAuthenticator(deps: { store: Store; jwt: JwtSigner; apiKeys: ApiKeys }) {
  const db = deps.store.db;

  async function fromJwt(token: string, via: 'jwt' | 'cookie'): Promise<Actor> {
    const claims = await deps.jwt.verify(token);
    // One primary-key read: the epoch moves on logout, reset and token reuse.
    const user = await findUserById(db, claims.userId);
    if (!user || user.session_epoch !== claims.epoch) throw unauthorized('This session has ended');
    return {
      userId: claims.userId,
      orgId: claims.orgId,
      scopes: null,
      via,
      isPlatformOwner: user.is_platform_owner === 1,
      sessionId: claims.sessionId,
      displayName: user.name,
      email: user.email,
    };
  }

  return async function authenticate(credentials: Credentials): Promise<Actor | null> {
    if (credentials.bearer) {
      if (credentials.bearer.startsWith(API_KEY_PREFIX)) {
        const actor = await deps.apiKeys.resolve(credentials.bearer);
        if (!actor) throw unauthorized('Invalid or expired API key');
        return actor;
      }
      return fromJwt(credentials.bearer, 'jwt');
    }
    if (credentials.accessCookie) return fromJwt(credentials.accessCookie, 'cookie');
    return null;
  };
}

export type Authenticate = ReturnType<typeof createAuthenticator>;
