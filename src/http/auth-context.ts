import type { FastifyRequest } from 'fastify';
import type { Actor } from '../domain/actor.js';
import { unauthorized } from '../errors.js';
import type { Credentials } from '../services/identity/index.js';
import type { ClientInfo } from '../services/identity/index.js';
import { COOKIES } from './cookies.js';
import './fastify-types.js';

/** The credentials a request carries: a bearer token, else the access cookie. */
export function credentialsOf(request: FastifyRequest): Credentials {
  const header = request.headers.authorization;
  const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
  return { bearer, accessCookie: request.cookies?.[COOKIES.access] };
}

/** The signed-in caller, or 401. */
export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}

/** Device and address recorded on a session. */
export function clientInfo(request: FastifyRequest): ClientInfo {
  return { device: String(request.headers['user-agent'] ?? 'unknown'), ip: request.ip };
}

/**
 * A route's `preValidation` hook where the caller must be signed in: an anonymous
 * request is refused 401 before its input is validated, not 400.
 */
export async function requireSignedIn(request: FastifyRequest): Promise<void> {
  requireActor(request);
}
