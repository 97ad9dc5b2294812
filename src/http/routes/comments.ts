import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createCommentInput, listCommentsInput, updateCommentInput } from '../../services/collab/index.js';
import type { Services } from '../../services/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { noContent } from '../../contract/answers.js';
import { commentList, commentRecord } from '../../contract/comments.js';
import { idParams, workspaceParams } from '../route-params.js';

/** Page comments and threads. */
export function commentRoutes(services: Services) {
  const { comments } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const signedIn = { preValidation: requireSignedIn };
    const byComment = { schema: { params: idParams, response: { 200: commentRecord } } };

    app.get(
      '/api/v1/workspaces/:id/comments',
      {
        ...signedIn,
        schema: { params: workspaceParams, querystring: listCommentsInput, response: { 200: commentList } },
      },
      async (request) => comments.list(requireActor(request), request.params.id, request.query),
    );

    app.post(
      '/api/v1/workspaces/:id/comments',
      {
        ...signedIn,
        schema: { params: workspaceParams, body: createCommentInput, response: { 201: commentRecord } },
      },
      async (request, reply) => {
        const actor = requireActor(request);
        return reply.code(201).send(await comments.create(actor, request.params.id, request.body));
      },
    );

    app.put(
      '/api/v1/comments/:id',
      { ...signedIn, schema: { ...byComment.schema, body: updateCommentInput } },
      async (request) => comments.update(requireActor(request), request.params.id, request.body),
    );

    app.delete(
      '/api/v1/comments/:id',
      { schema: { params: idParams, response: { 204: noContent } } },
      async (request, reply) => {
        await comments.remove(requireActor(request), request.params.id);
        return reply.code(204).send();
      },
    );

    app.post('/api/v1/comments/:id/resolve', byComment, async (request) =>
      comments.resolve(requireActor(request), request.params.id),
    );

    app.post('/api/v1/comments/:id/unresolve', byComment, async (request) =>
      comments.unresolve(requireActor(request), request.params.id),
    );
  };
}
