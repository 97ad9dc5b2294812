import type { FastifyInstance } from 'fastify';
import { gitCredentialsInput, gitRemoteInput } from '../../services/sync/index.js';
import type { Services } from '../../services/index.js';
import { requireActor } from '../auth-context.js';
import { parseInput } from '../../domain/validate.js';

type ById = { Params: { id: string } };

/**
 * How a workspace reaches its git remote (admins only): the remote URL and
 * branch, HTTPS credentials (write-only: never shown again), the SSH deploy
 * key's public half and the SSH host key trusted for the remote.
 */
export function gitRemoteRoutes(services: Services) {
  const git = services.gitSync;
  return (app: FastifyInstance) => {
    app.put<ById>('/api/v1/workspaces/:id/git-remote', async (request) => {
      const actor = requireActor(request);
      return git.setRemote(actor, request.params.id, parseInput(gitRemoteInput, request.body));
    });

    app.put<ById>('/api/v1/workspaces/:id/git-credentials', async (request) => {
      const actor = requireActor(request);
      return git.setCredentials(actor, request.params.id, parseInput(gitCredentialsInput, request.body));
    });

    app.delete<ById>('/api/v1/workspaces/:id/git-credentials', async (request, reply) => {
      await git.clearCredentials(requireActor(request), request.params.id);
      return reply.code(204).send();
    });

    app.delete<ById>('/api/v1/workspaces/:id/git-host-key', async (request) =>
      git.resetHostKey(requireActor(request), request.params.id),
    );

    app.get<ById>('/api/v1/workspaces/:id/deploy-key', async (request) =>
      git.deployKey(requireActor(request), request.params.id),
    );
  };
}
