import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';
import { changeRoleInput, listInput } from '../../services/collab/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { noContent } from '../../contract/answers.js';
import { memberList, memberRecord, peopleList } from '../../contract/members.js';
import { workspaceParams } from '../route-params.js';

/**
 * `/api/v1/workspaces/:id/admin/members`: list, change a role, remove;
 * and `/api/v1/workspaces/:id/members`, names and handles for the members who mention each other.
 */
export function memberRoutes(services: Services) {
  const { members, people } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/v1/workspaces/:id/members',
      { schema: { params: workspaceParams, response: { 200: peopleList } }, preValidation: requireSignedIn },
      async (request) => people.directory(requireActor(request), request.params.id),
    );

    app.get(
      '/api/v1/workspaces/:id/admin/members',
      {
        schema: { params: workspaceParams, querystring: listInput, response: { 200: memberList } },
        preValidation: requireSignedIn,
      },
      async (request) => members.list(requireActor(request), request.params.id, request.query),
    );

    app.put(
      '/api/v1/workspaces/:id/admin/members/:user_id/role',
      {
        schema: {
          params: workspaceParams.extend({ user_id: z.string() }),
          body: changeRoleInput,
          response: { 200: memberRecord },
        },
        preValidation: requireSignedIn,
      },
      async (request) =>
        members.changeRole(requireActor(request), request.params.id, request.params.user_id, request.body),
    );

    app.delete<{ Params: { id: string; user_id: string } }>(
      '/api/v1/workspaces/:id/admin/members/:user_id',
      { schema: { response: { 204: noContent } } },
      async (request, reply) => {
        await members.remove(requireActor(request), request.params.id, request.params.user_id);
        return reply.code(204).send();
      },
    );
  };
}
