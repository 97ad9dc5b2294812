import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/index.js';
import { searchInput } from '../../services/pages/index.js';
import { requireActor } from '../auth-context.js';
import { parseInput } from '../../domain/validate.js';

/** `GET /api/v1/workspaces/:id/search?q&limit` (SPEC.md 4.3, CONTRACT.md part 3). */
export function searchRoutes(services: Services) {
  const { search } = services;
  return (app: FastifyInstance) => {
    app.get<{ Params: { id: string } }>(
      '/api/v1/workspaces/:id/search',
      { config: { rateLimit: 'search' } },
      async (request) => {
        const actor = requireActor(request);
        return search.search(actor, request.params.id, parseInput(searchInput, request.query));
      },
    );
  };
}
