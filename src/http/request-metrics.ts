import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics/metrics.js';
import './fastify-types.js';

/**
 * Counts and times every request by its route pattern (`/api/v1/content/:workspace/*`,
 * never the raw path, so a path cannot become a series), and the published site's
 * requests by status. Added before authentication so a refused request counts too.
 */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  const { http, site } = metrics;
  app.addHook('onRequest', async (_request, reply) => {
    http.inFlight.inc();
    // `close` fires for finished and aborted responses alike; onResponse misses the latter.
    reply.raw.once('close', () => http.inFlight.dec());
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const { method } = request;
    const status = reply.statusCode;
    http.requests.inc({ route, method, status });
    http.duration.observe({ route, method }, reply.elapsedTime / 1000);
    if (request.routeOptions.config?.surface === 'site') site.requests.inc({ status });
  });
}
