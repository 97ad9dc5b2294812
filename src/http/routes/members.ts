import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/index.js';
import { changeRoleInput, listInput } from '../../services/collab/index.js';
import { requireActor } from '../auth-context.js';
import { parseInput } from '../../domain/validate.js';

type WorkspaceParams = { Params: { id: string } };

/** `/api/v1/workspaces/:id/admin/members`: list, change a role, remove (SPEC.md 4.5; admins only). */
export function memberRoutes(services: Services) {
  const { members } = services;
  return (app: FastifyInstance) => {
    app.get<WorkspaceParams>('/api/v1/workspaces/:id/admin/members', async (request) =>
      members.list(requireActor(request), request.params.id, parseInput(listInput, request.query)),
    );

    app.put<{ Params: { id: string; user_id: string } }>(
      '/api/v1/workspaces/:id/admin/members/:user_id/role',
      async (request) =>
        members.changeRole(
          requireActor(request),
          request.params.id,
          request.params.user_id,
          parseInput(changeRoleInput, request.body),
        ),
    );

    app.delete<{ Params: { id: string; user_id: string } }>(
      '/api/v1/workspaces/:id/admin/members/:user_id',
      async (request, reply) => {
        await members.remove(requireActor(request), request.params.id, request.params.user_id);
        return reply.code(204).send();
      },
    );
  };
}
