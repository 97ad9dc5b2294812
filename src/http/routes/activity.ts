import type { FastifyInstance } from 'fastify';
import { listActivityInput, pageActivityInput } from '../../services/activity.js';
import type { Services } from '../../services/index.js';
import { requireActor } from '../auth-context.js';
import { parseInput } from '../../domain/validate.js';

const READ = { rateLimit: 'contentRead' } as const;

type ById = { Params: { id: string } };

/** The activity feed (CONTRACT.md part 3): `{ data, next_cursor }`, newest first. */
export function activityRoutes(services: Services) {
  const { activity } = services;
  return (app: FastifyInstance) => {
    app.get<ById>('/api/v1/workspaces/:id/activity', { config: READ }, async (request) =>
      activity.list(requireActor(request), request.params.id, parseInput(listActivityInput, request.query)),
    );

    app.get<ById>('/api/v1/workspaces/:id/page-activity', { config: READ }, async (request) =>
      activity.forPage(
        requireActor(request),
        request.params.id,
        parseInput(pageActivityInput, request.query),
      ),
    );
  };
}
