import type { FastifyInstance } from 'fastify';
import { createApiKeyInput } from '../../services/identity/index.js';
import type { Services } from '../../services/index.js';
import { requireActor } from '../auth-context.js';
import { parseInput } from '../../domain/validate.js';

/** `/api/v1/api-keys` (SPEC.md 4.5, CONTRACT.md part 3). */
export function apiKeyRoutes(services: Services) {
  const { apiKeys } = services;
  return (app: FastifyInstance) => {
    app.post('/api/v1/api-keys', async (request, reply) => {
      const created = await apiKeys.create(
        requireActor(request),
        parseInput(createApiKeyInput, request.body),
      );
      return reply.code(201).send(created);
    });

    app.get('/api/v1/api-keys', async (request) => ({
      data: await apiKeys.list(requireActor(request)),
      next_cursor: null,
    }));

    app.post<{ Params: { id: string } }>('/api/v1/api-keys/:id/rotate', async (request) =>
      apiKeys.rotate(requireActor(request), request.params.id),
    );

    app.delete<{ Params: { id: string } }>('/api/v1/api-keys/:id', async (request, reply) => {
      await apiKeys.remove(requireActor(request), request.params.id);
      return reply.code(204).send();
    });
  };
}
