import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../services/index.js';
import { importOptions, MAX_IMPORT_BYTES } from '../../services/imports/index.js';
import { importJob } from '../../contract/imports.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';
import { ownScope } from '../route-scopes.js';

const jobParams = workspaceParams.extend({ job_id: z.string().min(1).max(100) });

/**
 * `POST /api/v1/workspaces/:id/imports` (the export's ZIP as the body, options in the
 * query) answers 202 with a job; `GET …/imports/:job_id` its progress and, once done, its
 * report. This scope reads bodies as raw bytes, up to an import's size.
 */
export function importRoutes(services: Services) {
  const { imports } = services;
  return ownScope((scope: FastifyInstance) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: MAX_IMPORT_BYTES },
      (_request, body, done) => done(null, body),
    );
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/api/v1/workspaces/:id/imports',
      {
        schema: { params: workspaceParams, querystring: importOptions, response: { 202: importJob } },
        preValidation: requireSignedIn,
        config: { rateLimit: 'contentWrite' },
      },
      async (request, reply) => {
        const job = await imports.start(
          requireActor(request),
          request.params.id,
          request.body,
          request.query,
        );
        return reply.code(202).send(job);
      },
    );
    app.get(
      '/api/v1/workspaces/:id/imports/:job_id',
      { schema: { params: jobParams, response: { 200: importJob } } },
      async (request) => imports.get(requireActor(request), request.params.id, request.params.job_id),
    );
  });
}
