import type { FastifyInstance } from 'fastify';
import { createCommentInput, listCommentsInput, updateCommentInput } from '../../services/collab/index.js';
import type { Services } from '../../services/index.js';
import { requireActor } from '../auth-context.js';
import { parseInput } from '../../domain/validate.js';

type WorkspaceParams = { Params: { id: string } };
type CommentParams = { Params: { id: string } };

/** Page comments and threads (SPEC.md 4.5). */
export function commentRoutes(services: Services) {
  const { comments } = services;
  return (app: FastifyInstance) => {
    app.get<WorkspaceParams>('/api/v1/workspaces/:id/comments', async (request) =>
      comments.list(requireActor(request), request.params.id, parseInput(listCommentsInput, request.query)),
    );

    app.post<WorkspaceParams>('/api/v1/workspaces/:id/comments', async (request, reply) => {
      const actor = requireActor(request);
      const input = parseInput(createCommentInput, request.body);
      return reply.code(201).send(await comments.create(actor, request.params.id, input));
    });

    app.put<CommentParams>('/api/v1/comments/:id', async (request) =>
      comments.update(requireActor(request), request.params.id, parseInput(updateCommentInput, request.body)),
    );

    app.delete<CommentParams>('/api/v1/comments/:id', async (request, reply) => {
      await comments.remove(requireActor(request), request.params.id);
      return reply.code(204).send();
    });

    app.post<CommentParams>('/api/v1/comments/:id/resolve', async (request) =>
      comments.resolve(requireActor(request), request.params.id),
    );

    app.post<CommentParams>('/api/v1/comments/:id/unresolve', async (request) =>
      comments.unresolve(requireActor(request), request.params.id),
    );
  };
}
