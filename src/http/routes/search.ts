import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';
import { searchInput } from '../../services/pages/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { searchResponse } from '../../contract/search.js';
import { workspaceParams } from '../route-params.js';

/** `GET /api/v1/workspaces/:id/search?q&limit`. */
export function searchRoutes(services: Services) {
  const { search } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/v1/workspaces/:id/search',
      {
        config: { rateLimit: 'search' },
        schema: { params: workspaceParams, querystring: searchInput, response: { 200: searchResponse } },
        preValidation: requireSignedIn,
      },
      async (request) => search.search(requireActor(request), request.params.id, request.query),
    );
  };
}
