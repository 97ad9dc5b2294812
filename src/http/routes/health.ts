import type { FastifyInstance } from 'fastify';
import type { HealthService } from '../../services/operations/index.js';

const PUBLIC = { auth: 'none' } as const;

/** `/api/health` (liveness) and `/api/ready`. No authentication. */
export function healthRoutes(health: HealthService, version: string) {
  return (app: FastifyInstance) => {
    app.get('/api/health', { config: PUBLIC }, async () => ({ status: 'ok', version }));

    app.get('/api/ready', { config: PUBLIC }, async (_request, reply) => {
      const { ready, checks } = await health.readiness();
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks });
    });
  };
}
