import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/index.js';
import { createWorkspaceInput, listWorkspacesInput } from '../../services/workspaces/index.js';
import { requireActor } from '../auth-context.js';
import { parseInput } from '../../domain/validate.js';

type ById = { Params: { id: string } };

/** SPEC.md 4.3's workspace routes; `:id` takes the workspace id or its slug. */
export function workspaceRoutes(services: Services) {
  const { workspaces } = services;
  return (app: FastifyInstance) => {
    app.get('/api/v1/workspaces', async (request) =>
      workspaces.list(requireActor(request), parseInput(listWorkspacesInput, request.query)),
    );

    app.post('/api/v1/workspaces', async (request, reply) => {
      const actor = requireActor(request);
      const created = await workspaces.create(actor, parseInput(createWorkspaceInput, request.body));
      return reply.code(201).send(created);
    });

    app.get<ById>('/api/v1/workspaces/:id', async (request) =>
      workspaces.get(requireActor(request), request.params.id),
    );

    app.delete<ById>('/api/v1/workspaces/:id', async (request, reply) => {
      await workspaces.remove(requireActor(request), request.params.id);
      return reply.code(204).send();
    });
  };
}
