import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/index.js';
import { acceptInvitationInput, createInvitationInput } from '../../services/collab/index.js';
import { listInput } from '../../services/collab/index.js';
import { requireActor } from '../auth-context.js';
import { parseInput } from '../../domain/validate.js';

type WorkspaceParams = { Params: { id: string } };

/** Workspace invitations (SPEC.md 4.5) and their acceptance (SPEC.md 4.1). */
export function invitationRoutes(services: Services) {
  const { invitations } = services;
  return (app: FastifyInstance) => {
    app.get<WorkspaceParams>('/api/v1/workspaces/:id/invitations', async (request) =>
      invitations.list(requireActor(request), request.params.id, parseInput(listInput, request.query)),
    );

    app.post<WorkspaceParams>('/api/v1/workspaces/:id/invitations', async (request, reply) => {
      const actor = requireActor(request);
      const input = parseInput(createInvitationInput, request.body);
      return reply.code(201).send(await invitations.create(actor, request.params.id, input));
    });

    app.delete<{ Params: { id: string; invitationId: string } }>(
      '/api/v1/workspaces/:id/invitations/:invitationId',
      async (request, reply) => {
        await invitations.revoke(requireActor(request), request.params.id, request.params.invitationId);
        return reply.code(204).send();
      },
    );

    // Under /api/auth/, so it counts against the auth bucket (CONTRACT.md 6).
    app.post('/api/auth/invitations/accept', { config: { rateLimit: 'auth' } }, async (request) =>
      invitations.accept(requireActor(request), parseInput(acceptInvitationInput, request.body)),
    );
  };
}
