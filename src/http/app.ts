import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  LogController,
  type RawRequestDefaultExpression,
} from 'fastify';
import crypto from 'node:crypto';
import { monotonicFactory } from 'ulid';
import type { Actor } from '../domain/actor.js';
import { AppError } from '../errors.js';
import type { Credentials } from '../services/authenticator.js';
import type { Logger } from '../logger.js';
import type { BucketTable } from '../ratelimit/buckets.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import { credentialsOf } from './auth-context.js';
import { installErrorHandling } from './error-handler.js';
import './fastify-types.js';
import { installRateLimits } from './rate-limit-hook.js';
import { contentSecurityPolicy, newNonce } from './security.js';

/** One registered route, as the `onRoute` hook saw it. */
export interface RouteEntry {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Every route registered on the app. The authorisation matrix test
     * (test/authz/matrix.test.ts) walks it, so a new route it has no
     * expectation for fails the suite instead of going unchecked.
     */
    routeTable: RouteEntry[];
  }
}

type RawRequest = RawRequestDefaultExpression;

// ulid's default draws 16 separate crypto calls per id, a tenth of a published page's
// cost; ids come from a refilled pool of random bytes instead (still ULIDs, still unguessable).
const randomPool = Buffer.alloc(4096);
let randomAt = randomPool.length;
const requestId = monotonicFactory(() => {
  if (randomAt >= randomPool.length) {
    crypto.randomFillSync(randomPool);
    randomAt = 0;
  }
  return (randomPool[randomAt++] ?? 0) / 256;
});

/** SPEC.md part 8: 10 MB for any request body. */
export const BODY_LIMIT = 10 * 1024 * 1024;

export interface HttpDeps {
  logger: Logger;
  trustProxy: boolean;
  limiter: RateLimiter;
  buckets: BucketTable;
  /** Resolves the caller from a bearer token, API key or cookie; null when anonymous. */
  authenticate: (credentials: Credentials) => Promise<Actor | null>;
  /** Route plugins, registered in order after the shared hooks. */
  routes: Array<(app: FastifyInstance) => void | Promise<void>>;
  /**
   * Rewrites a request's URL before routing, from its Host header: a verified custom
   * domain's paths become its site's (`/guides` → `/p/<slug>/guides`).
   */
  rewriteUrl?: (host: string | undefined, url: string) => string;
}

/**
 * The Fastify app with the hooks every route shares: request ids, the caller,
 * rate limits, security headers and the one error mapping.
 */
export async function buildHttpApp(deps: HttpDeps): Promise<FastifyInstance> {
  const rewrite = deps.rewriteUrl;
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT,
    trustProxy: deps.trustProxy,
    genReqId: () => requestId(),
    requestIdHeader: false,
    // Folio logs one line per request itself (onResponse below), with its request id.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    ...(rewrite ? { rewriteUrl: (req: RawRequest) => rewrite(req.headers.host, req.url ?? '/') } : {}),
  });

  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  // Added before any route so it sees all of them, in every encapsulated scope.
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url });
  });

  app.decorateRequest('actor', null);
  app.decorateRequest('cspNonce', '');
  await app.register(cookie);
  // At the root so every upgrade request is routed (and refused) by Fastify; /ws is in routes/ws.ts.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  installErrorHandling(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-ID', request.id);
    reply.header('X-Content-Type-Options', 'nosniff');
    const surface = request.routeOptions.config?.surface ?? 'api';
    if (surface !== 'api') request.cspNonce = newNonce();
    reply.header('Content-Security-Policy', contentSecurityPolicy(surface, request.cspNonce || undefined));
    request.actor = await deps.authenticate(credentialsOf(request)).catch((error: unknown) => {
      // A reader of the site or the app with a stale session cookie is just anonymous, not a JSON 401.
      if (surface !== 'api' && error instanceof AppError && error.code === 'UNAUTHORIZED') return null;
      throw error;
    });
  });
  installRateLimits(app, deps.limiter, deps.buckets);

  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        request_id: request.id,
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: reply.elapsedTime,
      },
      'request',
    );
  });

  for (const routes of deps.routes) await app.register(async (scope) => routes(scope));
  return app;
}
