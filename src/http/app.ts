import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
  type RawRequestDefaultExpression,
} from 'fastify';
import crypto from 'node:crypto';
import { monotonicFactory } from 'ulid';
import type { Actor } from '../domain/actor.js';
import { AppError } from '../errors.js';
import type { Credentials } from '../services/identity/index.js';
import type { Logger } from '../logger.js';
import type { BucketTable } from '../ratelimit/buckets.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import { credentialsOf } from './auth-context.js';
import { MAX_NAME_BYTES } from '../domain/paths.js';
import { answerFrameworkError, clientErrorHandler, installErrorHandling } from './error-handler.js';
import './fastify-types.js';
import { apiDocsRoutes } from './api-docs.js';
import { collectDocumentedRoutes, openApiDocumentRoute } from './openapi.js';
import { installRateLimits } from './rate-limit-hook.js';
import { methodAsAsked, routeHeadAsGet } from './head-requests.js';
import { installLargePayloadSlicing } from './large-payloads.js';
import { registerRouteGroups, type RouteGroup } from './route-scopes.js';
import { installJsonBodies } from './json-body.js';
import type { PerOrgLimits } from '../ratelimit/org-limits.js';
import { installRequestMetrics } from './request-metrics.js';
import type { Metrics } from '../metrics/metrics.js';
import { installRouteSchemas, routeSchemaCompilers } from './route-schemas.js';
import { layoutConstraint } from './compat/layout.js';
import { installLayoutBLists } from './compat/lists.js';
import { crossOriginRefused, fromOwnOrigin, isUnsafeMethod } from './same-origin.js';
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

/** 10 MB for any request body. */
export const BODY_LIMIT = 10 * 1024 * 1024;

export interface HttpDeps {
  logger: Logger;
  trustProxy: boolean;
  limiter: RateLimiter;
  buckets: BucketTable;
  /** How an organization's limits differ from `buckets` (Cloud edition: its plan's tier, the platform owner's figures). */
  perOrg?: PerOrgLimits;
  /** PUBLIC_URL's origin: where Folio's own pages are served from (besides the request's own Host). */
  publicOrigin: string;
  /** Resolves the caller from a bearer token, API key or cookie; null when anonymous. */
  authenticate: (credentials: Credentials) => Promise<Actor | null>;
  /** Route plugins, registered in order after the shared hooks. */
  routes: RouteGroup[];
  /**
   * Rewrites a request's URL before routing, from its Host header: a verified custom
   * domain's paths become its site's (`/guides` → `/p/<slug>/guides`).
   */
  rewriteUrl?: (host: string | undefined, url: string) => string;
  /** Answers a request no route matched before it becomes a 404 (the web app's deep links). */
  notFoundFallback?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | null;
  /** Serves the OpenAPI document of the routes and the reference page (`/api/docs`) for this version. */
  apiReference?: { version: string };
  /** Counts requests and rate-limit refusals when FF_METRICS is on. */
  metrics?: Metrics;
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
    schemaController: { compilersFactory: routeSchemaCompilers },
    forceCloseConnections: 'idle',
    // A path parameter names one thing (a slug, an id, an upload's file name), never more than
    // a file name's length; Fastify's default of 100 would refuse names Folio itself stores.
    routerOptions: { maxParamLength: MAX_NAME_BYTES },
    // Routing and parser refusals go through the same error body as everything else.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: clientErrorHandler(requestId, deps.logger),
    // HEAD goes to the GET route (head-requests.ts) rather than to a HEAD twin of each.
    exposeHeadRoutes: false,
    // Folio's route groups are its own synchronous functions, never a plugin that could hang;
    // without the timeout, registering each one sets and clears no timer (a start registers ~50).
    pluginTimeout: 0,
    rewriteUrl: (req: RawRequest) => {
      routeHeadAsGet(req);
      return rewrite ? rewrite(req.headers.host, req.url ?? '/') : (req.url ?? '/');
    },
  });

  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  // Added before any route so it sees all of them, in every encapsulated scope.
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url });
  });

  installRouteSchemas(app);
  // Older layouts' shapes on current paths, chosen by the Folio-Layout header (src/http/compat).
  app.addConstraintStrategy(layoutConstraint);
  // Layout B's `has_more` and page size on the current lists, hooked onto each list route.
  installLayoutBLists(app);
  const documented = deps.apiReference ? collectDocumentedRoutes(app) : null;

  app.decorateRequest('actor', null);
  app.decorateRequest('cspNonce', '');
  await app.register(cookie);
  // At the root so every upgrade request is routed (and refused) by Fastify; /ws is in routes/ws.ts.
  await app.register(websocket, {
    options: { maxPayload: 64 * 1024 },
    errorHandler: (error, socket, request) => {
      // ws names a peer's protocol violations WS_ERR_* (bad frames, oversized messages): the
      // client's fault, worth a warning; anything else failed in Folio.
      const code = (error as NodeJS.ErrnoException).code ?? '';
      const level = code.startsWith('WS_ERR_') || code === 'ECONNRESET' ? 'warn' : 'error';
      request.log[level]({ err: error, request_id: request.id }, 'websocket connection failed');
      socket.terminate();
    },
  });
  installErrorHandling(app, deps.notFoundFallback);
  installJsonBodies(app);
  installLargePayloadSlicing(app);
  if (deps.metrics?.enabled) installRequestMetrics(app, deps.metrics);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-ID', request.id);
    reply.header('X-Content-Type-Options', 'nosniff');
    const surface = request.routeOptions.config?.surface ?? 'api';
    if (surface !== 'api') request.cspNonce = newNonce();
    reply.header('Content-Security-Policy', contentSecurityPolicy(surface, request.cspNonce || undefined));
    if (request.routeOptions.config?.auth === 'none') return;
    request.actor = await deps.authenticate(credentialsOf(request)).catch((error: unknown) => {
      // A reader of the site or the app with a stale session cookie is just anonymous, not a JSON 401.
      if (surface !== 'api' && error instanceof AppError && error.code === 'UNAUTHORIZED') return null;
      throw error;
    });
    // Defence in depth behind SameSite=Strict: a browser sends cookies by itself, so a
    // change made with them must come from Folio's own pages. Bearer tokens are sent on purpose.
    if (
      request.actor?.via === 'cookie' &&
      isUnsafeMethod(request.method) &&
      !fromOwnOrigin(request, deps.publicOrigin)
    ) {
      throw crossOriginRefused();
    }
  });
  installRateLimits(app, deps.limiter, deps.buckets, deps.metrics, deps.perOrg);

  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        request_id: request.id,
        method: methodAsAsked(request),
        url: request.url,
        status: reply.statusCode,
        ms: reply.elapsedTime,
      },
      'request',
    );
  });

  const routes =
    deps.apiReference && documented
      ? [openApiDocumentRoute(documented, deps.apiReference.version), apiDocsRoutes(), ...deps.routes]
      : deps.routes;
  await registerRouteGroups(app, routes);
  return app;
}
