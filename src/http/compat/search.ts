import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';
import { olderSearchInput } from '../../services/pages/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { deprecatedRoute } from './layout.js';

const successor = (request: FastifyRequest) => {
  const workspace = String((request.query as { workspace?: unknown } | undefined)?.workspace ?? '');
  return `/api/v1/workspaces/${encodeURIComponent(workspace)}/search`;
};

/** Layout B's `GET /api/v1/search?q&workspace&tag&limit`, answering `has_more` and `took_ms` too. */
export function searchCompatRoutes(services: Services) {
  const { olderSearch } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const d = deprecatedRoute(successor, 'Layout B: search one workspace, optionally by tag');
    app.get(
      '/api/v1/search',
      {
        onSend: d.onSend,
        config: { rateLimit: 'search' },
        preValidation: requireSignedIn,
        schema: { ...d.schema, querystring: olderSearchInput },
      },
      async (request) => olderSearch.search(requireActor(request), request.query),
    );
  };
}
