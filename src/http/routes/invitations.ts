import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';
import { acceptInvitationInput, createInvitationInput } from '../../services/collab/index.js';
import { listInput } from '../../services/collab/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';
import { noContent } from '../../contract/answers.js';
import { invitationList, invitationRecord } from '../../contract/invitations.js';
import { joinedWorkspace } from '../../contract/members.js';

/** Workspace invitations and their acceptance. */
export function invitationRoutes(services: Services) {
  const { invitations } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const signedIn = { preValidation: requireSignedIn };

    app.get(
      '/api/v1/workspaces/:id/invitations',
      {
        ...signedIn,
        schema: { params: workspaceParams, querystring: listInput, response: { 200: invitationList } },
      },
      async (request) => invitations.list(requireActor(request), request.params.id, request.query),
    );

    app.post(
      '/api/v1/workspaces/:id/invitations',
      {
        ...signedIn,
        schema: { params: workspaceParams, body: createInvitationInput, response: { 201: invitationRecord } },
      },
      async (request, reply) => {
        const actor = requireActor(request);
        return reply.code(201).send(await invitations.create(actor, request.params.id, request.body));
      },
    );

    app.delete<{ Params: { id: string; invitationId: string } }>(
      '/api/v1/workspaces/:id/invitations/:invitationId',
      { schema: { response: { 204: noContent } } },
      async (request, reply) => {
        await invitations.revoke(requireActor(request), request.params.id, request.params.invitationId);
        return reply.code(204).send();
      },
    );

    // Under /api/auth/, so it counts against the auth bucket.
    app.post(
      '/api/auth/invitations/accept',
      {
        ...signedIn,
        config: { rateLimit: 'auth' },
        schema: { body: acceptInvitationInput, response: { 200: joinedWorkspace } },
      },
      async (request) => invitations.accept(requireActor(request), request.body),
    );
  };
}
