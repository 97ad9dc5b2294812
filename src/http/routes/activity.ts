import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listActivityInput, pageActivityInput } from '../../services/activity.js';
import type { Services } from '../../services/index.js';
import { activityList } from '../../contract/activity.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';

const READ = { rateLimit: 'contentRead' } as const;

/** The activity feed: `{ data, next_cursor }`, newest first. */
export function activityRoutes(services: Services) {
  const { activity } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const options = { config: READ, preValidation: requireSignedIn };

    app.get(
      '/api/v1/workspaces/:id/activity',
      {
        ...options,
        schema: { params: workspaceParams, querystring: listActivityInput, response: { 200: activityList } },
      },
      async (request) => activity.list(requireActor(request), request.params.id, request.query),
    );

    app.get(
      '/api/v1/workspaces/:id/page-activity',
      {
        ...options,
        schema: { params: workspaceParams, querystring: pageActivityInput, response: { 200: activityList } },
      },
      async (request) => activity.forPage(requireActor(request), request.params.id, request.query),
    );
  };
}
