import type { FastifyInstance, FastifyRequest } from 'fastify';
import '@fastify/websocket';
import type { Actor } from '../../domain/actor.js';
import { forbidden } from '../../errors.js';
import { isWsTicket } from '../../services/identity/index.js';
import type { Services } from '../../services/index.js';
import type { Hub } from '../../ws/hub.js';
import { requireActor } from '../auth-context.js';
import { COOKIES, setCookie } from '../cookies.js';
import { noContent } from '../../contract/answers.js';

/**
 * Whether a browser's Origin may open the socket: PUBLIC_URL's origin or the
 * server's own host. Cookies are SameSite=Strict already; this also stops a
 * page on another site from riding a cookie through a non-browser-enforced path.
 */
export function originAllowed(origin: string, publicUrl: string, host: string | undefined): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (parsed.origin === new URL(publicUrl).origin) return true;
  return host !== undefined && parsed.host.toLowerCase() === host.toLowerCase();
}

/** `POST /api/auth/ws-token` and the `/ws` stream. */
export function wsRoutes(services: Services, hub: Hub, publicUrl: string) {
  const { wsTokens, wsTickets } = services;
  const actors = new WeakMap<FastifyRequest, Actor>();
  // Sockets opened with a ticket (Layout C's `?ticket=`, Layout B's ticket cookie) re-check
  // the ticket's session instead of a cookie token.
  const rechecks = new WeakMap<FastifyRequest, () => Promise<Actor>>();

  return (app: FastifyInstance) => {
    const wsToken = { response: { 204: noContent.describe('Sets the svc_ws_token cookie for /ws') } };
    app.post(
      '/api/auth/ws-token',
      { config: { rateLimit: 'auth' }, schema: wsToken },
      async (request, reply) => {
        const { token, maxAge } = await wsTokens.issue(requireActor(request));
        setCookie(reply, COOKIES.ws, token, maxAge);
        return reply.code(204).send();
      },
    );

    app.get(
      '/ws',
      {
        websocket: true,
        // Runs before the upgrade, so a refusal is a plain HTTP 401/403 with the API's error body.
        preValidation: async (request) => {
          const origin = request.headers.origin;
          if (origin !== undefined && !originAllowed(origin, publicUrl, request.headers.host)) {
            throw forbidden('WebSocket connections are accepted only from this site');
          }
          const query = (request.query as { ticket?: unknown }).ticket;
          const cookie = request.cookies[COOKIES.ws];
          const ticket = typeof query === 'string' ? query : isWsTicket(cookie) ? cookie : undefined;
          if (ticket !== undefined) {
            const { actor, recheck } = await wsTickets.redeem(ticket);
            rechecks.set(request, recheck);
            return void actors.set(request, actor);
          }
          actors.set(request, await wsTokens.verify(cookie));
        },
      },
      (socket, request) => {
        const actor = actors.get(request);
        if (!actor) return socket.close(4401, 'Unauthorized');
        const cookie = request.cookies[COOKIES.ws];
        hub.attach(socket, actor, rechecks.get(request) ?? (() => wsTokens.verify(cookie)));
      },
    );
  };
}
