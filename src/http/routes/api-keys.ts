import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createApiKeyInput } from '../../services/identity/index.js';
import type { Services } from '../../services/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { idParams } from '../route-params.js';
import { noContent } from '../../contract/answers.js';
import { apiKeyList, newApiKey } from '../../contract/api-keys.js';

/** `/api/v1/api-keys`. */
export function apiKeyRoutes(services: Services) {
  const { apiKeys } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/api/v1/api-keys',
      { schema: { body: createApiKeyInput, response: { 201: newApiKey } }, preValidation: requireSignedIn },
      async (request, reply) => {
        const created = await apiKeys.create(requireActor(request), request.body);
        return reply.code(201).send(created);
      },
    );

    app.get('/api/v1/api-keys', { schema: { response: { 200: apiKeyList } } }, async (request) => ({
      data: await apiKeys.list(requireActor(request)),
      next_cursor: null,
    }));

    app.post(
      '/api/v1/api-keys/:id/rotate',
      { schema: { params: idParams, response: { 200: newApiKey } } },
      async (request) => apiKeys.rotate(requireActor(request), request.params.id),
    );

    app.delete(
      '/api/v1/api-keys/:id',
      { schema: { params: idParams, response: { 204: noContent } } },
      async (request, reply) => {
        await apiKeys.remove(requireActor(request), request.params.id);
        return reply.code(204).send();
      },
    );
  };
}
