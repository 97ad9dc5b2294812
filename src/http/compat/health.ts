import type { FastifyInstance } from 'fastify';
import type { HealthService } from '../../services/operations/index.js';
import { deprecatedRoute } from './layout.js';

const PUBLIC = { auth: 'none' } as const;
const statusOf = (check: { status: string } | undefined) => (check?.status === 'fail' ? 'fail' : 'ok');

/**
 * Layout C's `/health` and `/ready` (ready shows db and search), and Layout B's health
 * (`Folio-Layout: B` on `/api/health`: status, db, git). Same checks as `/api/ready`.
 */
export function healthCompatRoutes(health: HealthService, version: string) {
  return (app: FastifyInstance) => {
    const live = deprecatedRoute('/api/health', 'Layout C: liveness');
    app.get('/health', { ...live, config: PUBLIC }, async () => ({ status: 'ok', version }));

    const ready = deprecatedRoute('/api/ready', 'Layout C: readiness (database and search index)');
    app.get('/ready', { ...ready, config: PUBLIC }, async (_request, reply) => {
      const { ready: isReady, checks } = await health.readiness();
      // The search index lives in the database and is complete once start-up reconciliation is.
      const search = statusOf(checks.database) === 'ok' ? statusOf(checks.reconciling) : 'fail';
      return reply
        .code(isReady ? 200 : 503)
        .send({ status: isReady ? 'ready' : 'unavailable', db: statusOf(checks.database), search });
    });

    const b = deprecatedRoute('/api/health', 'Layout B: status, db, git', { headerVariant: true });
    app.get('/api/health', { ...b, config: PUBLIC, constraints: { layout: 'B' } }, async () => {
      const { checks } = await health.readiness();
      const db = statusOf(checks.database);
      const git = statusOf(checks.git);
      return { status: db === 'ok' && git === 'ok' ? 'ok' : 'degraded', db, git, version };
    });
  };
}
