import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import type { HealthService } from '../../services/operations/index.js';
import { liveness, readiness } from '../../contract/health.js';

const PUBLIC = { auth: 'none' } as const;

/** `/api/health` (liveness) and `/api/ready`. No authentication. */
export function healthRoutes(health: HealthService, version: string) {
  return (scope: FastifyInstance) => {
    // Typed by the response schemas: a service answer that drifts from its record does not compile.
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.get('/api/health', { config: PUBLIC, schema: { response: { 200: liveness } } }, async () => ({
      status: 'ok' as const,
      version,
    }));

    const ready = { response: { 200: readiness, 503: readiness } };
    app.get('/api/ready', { config: PUBLIC, schema: ready }, async (_request, reply) => {
      const { ready, checks } = await health.readiness();
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks });
    });
  };
}
