import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changeRoleInput, offsetListInput } from '../../services/collab/index.js';
import type { Services } from '../../services/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';
import { deprecatedRoute, paramsOf } from './layout.js';

const memberParams = workspaceParams.extend({ user_id: z.string().describe('The member’s user id') });
const adminMembers = (request: FastifyRequest) => {
  const { id = '', user_id: userId } = paramsOf(request);
  const base = `/api/v1/workspaces/${encodeURIComponent(id)}/admin/members`;
  return userId === undefined ? base : `${base}/${encodeURIComponent(userId)}`;
};

/**
 * Layout C's members: `GET …/members` (with `Folio-Layout: C`: the current path lists the
 * member directory), `DELETE …/members/:user_id`, `PUT …/members/:user_id/role`, over the
 * members service (admins only, as the current `/admin/members` routes).
 */
export function membersCompatRoutes(services: Services) {
  const { members } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const base = '/api/v1/workspaces/:id/members';

    const list = deprecatedRoute(adminMembers, 'Layout C: members with offset pagination', {
      headerVariant: true,
    });
    app.get(
      base,
      {
        onSend: list.onSend,
        constraints: { layout: 'C' },
        preValidation: requireSignedIn,
        schema: { ...list.schema, params: workspaceParams, querystring: offsetListInput },
      },
      async (request) => members.listByOffset(requireActor(request), request.params.id, request.query),
    );

    const remove = deprecatedRoute(adminMembers, 'Layout C: remove a member');
    app.delete(
      `${base}/:user_id`,
      { ...remove, preValidation: requireSignedIn, schema: { ...remove.schema, params: memberParams } },
      async (request, reply) => {
        await members.remove(requireActor(request), request.params.id, request.params.user_id);
        return reply.code(204).send();
      },
    );

    const role = deprecatedRoute(
      (request) => `${adminMembers(request)}/role`,
      'Layout C: change a member’s role',
    );
    app.put(
      `${base}/:user_id/role`,
      {
        ...role,
        preValidation: requireSignedIn,
        schema: { ...role.schema, params: memberParams, body: changeRoleInput },
      },
      async (request) =>
        members.changeRole(requireActor(request), request.params.id, request.params.user_id, request.body),
    );
  };
}
