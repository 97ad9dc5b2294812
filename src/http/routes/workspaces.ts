import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';
import { createWorkspaceInput, listWorkspacesInput } from '../../services/workspaces/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { noContent } from '../../contract/answers.js';
import { workspaceList, workspaceRecord } from '../../contract/workspaces.js';
import { workspaceParams } from '../route-params.js';

/** The API's workspace routes; `:id` takes the workspace id or its slug. */
export function workspaceRoutes(services: Services) {
  const { workspaces } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const signedIn = { preValidation: requireSignedIn };

    app.get(
      '/api/v1/workspaces',
      { ...signedIn, schema: { querystring: listWorkspacesInput, response: { 200: workspaceList } } },
      async (request) => workspaces.list(requireActor(request), request.query),
    );

    app.post(
      '/api/v1/workspaces',
      { ...signedIn, schema: { body: createWorkspaceInput, response: { 201: workspaceRecord } } },
      async (request, reply) => {
        const created = await workspaces.create(requireActor(request), request.body);
        return reply.code(201).send(created);
      },
    );

    const byId = { params: workspaceParams };
    app.get(
      '/api/v1/workspaces/:id',
      { schema: { ...byId, response: { 200: workspaceRecord } } },
      async (request) => workspaces.get(requireActor(request), request.params.id),
    );

    app.delete(
      '/api/v1/workspaces/:id',
      { schema: { ...byId, response: { 204: noContent } } },
      async (request, reply) => {
        await workspaces.remove(requireActor(request), request.params.id);
        return reply.code(204).send();
      },
    );
  };
}
