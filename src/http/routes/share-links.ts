import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/index.js';
import { listInput } from '../../services/collab/index.js';
import { createShareLinkInput } from '../../services/collab/index.js';
import { requireActor } from '../auth-context.js';
import { parseInput } from '../../domain/validate.js';

type WorkspaceParams = { Params: { id: string } };

/** Share links (SPEC.md 4.5): managed by admins, used by any signed-in user. */
export function shareLinkRoutes(services: Services) {
  const { shareLinks } = services;
  return (app: FastifyInstance) => {
    app.get<WorkspaceParams>('/api/v1/workspaces/:id/share-links', async (request) =>
      shareLinks.list(requireActor(request), request.params.id, parseInput(listInput, request.query)),
    );

    app.post<WorkspaceParams>('/api/v1/workspaces/:id/share-links', async (request, reply) => {
      const actor = requireActor(request);
      const input = parseInput(createShareLinkInput, request.body);
      return reply.code(201).send(await shareLinks.create(actor, request.params.id, input));
    });

    app.delete<{ Params: { id: string; linkId: string } }>(
      '/api/v1/workspaces/:id/share-links/:linkId',
      async (request, reply) => {
        await shareLinks.revoke(requireActor(request), request.params.id, request.params.linkId);
        return reply.code(204).send();
      },
    );

    app.post<{ Params: { token: string } }>('/api/v1/share-links/:token/use', async (request) =>
      shareLinks.use(requireActor(request), request.params.token),
    );
  };
}
