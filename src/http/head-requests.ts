import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';

/**
 * HEAD requests are answered by the GET route of their path, as HTTP defines HEAD.
 *
 * Fastify would otherwise add a HEAD twin of every GET route, doubling what its router
 * inserts at each start (about 35 ms of a start, bench/RESULTS.md). Node's http server
 * already knows, before routing, that the response to a HEAD request has no body: it sends
 * the GET route's status and headers (Content-Length included) and drops what is written
 * after them. Called by Fastify's rewriteUrl, which sees every request before routing.
 */
const ASKED_AS_HEAD = Symbol('folio.askedAsHead');

type RawRequest = IncomingMessage & { [ASKED_AS_HEAD]?: true };

export function routeHeadAsGet(req: RawRequest): void {
  if (req.method !== 'HEAD') return;
  req.method = 'GET';
  req[ASKED_AS_HEAD] = true;
}

/** The method the client sent (HEAD, for a HEAD request routed as GET). */
export function methodAsAsked(request: FastifyRequest): string {
  return (request.raw as RawRequest)[ASKED_AS_HEAD] ? 'HEAD' : request.method;
}
