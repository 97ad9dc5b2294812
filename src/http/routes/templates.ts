import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/index.js';
import { templateList, templateRecord } from '../../contract/pages.js';
import { requireActor } from '../auth-context.js';

/** `GET /api/v1/templates` and `GET /api/v1/templates/:id`. */
export function templateRoutes(services: Services) {
  const { templates } = services;
  return (app: FastifyInstance) => {
    app.get(
      '/api/v1/templates',
      { config: { rateLimit: 'contentRead' }, schema: { response: { 200: templateList } } },
      async (request) => ({
        data: templates.list(requireActor(request)),
        next_cursor: null,
      }),
    );

    app.get<{ Params: { id: string } }>(
      '/api/v1/templates/:id',
      { config: { rateLimit: 'contentRead' }, schema: { response: { 200: templateRecord } } },
      async (request) => templates.get(requireActor(request), request.params.id),
    );
  };
}
