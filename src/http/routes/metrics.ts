import type { FastifyInstance } from 'fastify';
import { type Metrics, scrapeFor } from '../../metrics/metrics.js';
import { requireActor } from '../auth-context.js';

/** `GET /metrics` (FF_METRICS): Prometheus text for the platform owner. */
export function metricsRoutes(metrics: Metrics) {
  return (app: FastifyInstance) => {
    app.get('/metrics', async (request, reply) => {
      const { contentType, text } = await scrapeFor(metrics, requireActor(request));
      return reply.type(contentType).send(text);
    });
  };
}
