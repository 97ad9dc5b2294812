import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { gitCredentialsInput, gitRemoteInput } from '../../services/sync/index.js';
import type { Services } from '../../services/index.js';
import { noContent } from '../../contract/answers.js';
import { deployKeyRecord, gitCredentials } from '../../contract/sync.js';
import { workspaceRecord } from '../../contract/workspaces.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';

/**
 * How a workspace reaches its git remote (admins only): the remote URL and
 * branch, HTTPS credentials (write-only: never shown again), the SSH deploy
 * key's public half and the SSH host key trusted for the remote.
 */
export function gitRemoteRoutes(services: Services) {
  const git = services.gitSync;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const byId = <R>(response: R) => ({ schema: { params: workspaceParams, response } });
    const withBody = <B, R>(body: B, response: R) => ({
      schema: { params: workspaceParams, body, response },
      preValidation: requireSignedIn,
    });

    app.put(
      '/api/v1/workspaces/:id/git-remote',
      withBody(gitRemoteInput, { 200: workspaceRecord }),
      async (request) => git.setRemote(requireActor(request), request.params.id, request.body),
    );

    app.put(
      '/api/v1/workspaces/:id/git-credentials',
      withBody(gitCredentialsInput, { 200: gitCredentials }),
      async (request) => git.setCredentials(requireActor(request), request.params.id, request.body),
    );

    app.delete('/api/v1/workspaces/:id/git-credentials', byId({ 204: noContent }), async (request, reply) => {
      await git.clearCredentials(requireActor(request), request.params.id);
      return reply.code(204).send();
    });

    app.delete('/api/v1/workspaces/:id/git-host-key', byId({ 200: workspaceRecord }), async (request) =>
      git.resetHostKey(requireActor(request), request.params.id),
    );

    app.get('/api/v1/workspaces/:id/deploy-key', byId({ 200: deployKeyRecord }), async (request) =>
      git.deployKey(requireActor(request), request.params.id),
    );
  };
}
