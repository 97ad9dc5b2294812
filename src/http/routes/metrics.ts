import type { FastifyInstance } from 'fastify';
import { type Metrics, scrapeFor } from '../../metrics/metrics.js';
import { requireActor } from '../auth-context.js';
import { otherContent } from '../../contract/answers.js';

/** `GET /metrics` (FF_METRICS): Prometheus text for the platform owner. */
export function metricsRoutes(metrics: Metrics) {
  return (app: FastifyInstance) => {
    const scrape = { response: { 200: otherContent('text/plain', 'Prometheus text exposition format') } };
    app.get('/metrics', { schema: scrape }, async (request, reply) => {
      const { contentType, text } = await scrapeFor(metrics, requireActor(request));
      return reply.type(contentType).send(text);
    });
  };
}
