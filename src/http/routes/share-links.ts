import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../services/index.js';
import { listInput } from '../../services/collab/index.js';
import { createShareLinkInput } from '../../services/collab/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';
import { noContent } from '../../contract/answers.js';
import { joinedWorkspace } from '../../contract/members.js';
import { shareLinkList, shareLinkRecord } from '../../contract/share-links.js';

/** Share links: managed by admins, used by any signed-in user. */
export function shareLinkRoutes(services: Services) {
  const { shareLinks } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const signedIn = { preValidation: requireSignedIn };

    app.get(
      '/api/v1/workspaces/:id/share-links',
      {
        ...signedIn,
        schema: { params: workspaceParams, querystring: listInput, response: { 200: shareLinkList } },
      },
      async (request) => shareLinks.list(requireActor(request), request.params.id, request.query),
    );

    app.post(
      '/api/v1/workspaces/:id/share-links',
      {
        ...signedIn,
        schema: { params: workspaceParams, body: createShareLinkInput, response: { 201: shareLinkRecord } },
      },
      async (request, reply) => {
        const actor = requireActor(request);
        return reply.code(201).send(await shareLinks.create(actor, request.params.id, request.body));
      },
    );

    app.delete<{ Params: { id: string; linkId: string } }>(
      '/api/v1/workspaces/:id/share-links/:linkId',
      { schema: { response: { 204: noContent } } },
      async (request, reply) => {
        await shareLinks.revoke(requireActor(request), request.params.id, request.params.linkId);
        return reply.code(204).send();
      },
    );

    const use = { schema: { params: z.object({ token: z.string() }), response: { 200: joinedWorkspace } } };
    app.post('/api/v1/share-links/:token/use', use, async (request) =>
      shareLinks.use(requireActor(request), request.params.token),
    );
  };
}
