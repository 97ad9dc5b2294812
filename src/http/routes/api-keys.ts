import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createApiKeyInput } from '../../services/identity/index.js';
import type { Services } from '../../services/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { idParams } from '../route-params.js';

/** `/api/v1/api-keys`. */
export function apiKeyRoutes(services: Services) {
  const { apiKeys } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/api/v1/api-keys',
      { schema: { body: createApiKeyInput }, preValidation: requireSignedIn },
      async (request, reply) => {
        const created = await apiKeys.create(requireActor(request), request.body);
        return reply.code(201).send(created);
      },
    );

    app.get('/api/v1/api-keys', async (request) => ({
      data: await apiKeys.list(requireActor(request)),
      next_cursor: null,
    }));

    app.post('/api/v1/api-keys/:id/rotate', { schema: { params: idParams } }, async (request) =>
      apiKeys.rotate(requireActor(request), request.params.id),
    );

    app.delete('/api/v1/api-keys/:id', { schema: { params: idParams } }, async (request, reply) => {
      await apiKeys.remove(requireActor(request), request.params.id);
      return reply.code(204).send();
    });
  };
}
