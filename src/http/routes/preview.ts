import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';
import { previewInput } from '../../services/publishing/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { pagePreview } from '../../contract/pages.js';
import { contentParams } from '../route-params.js';

/**
 * The editor's live preview: renders posted page text with the published site's renderer
 * and theme. Nothing is written, so it counts against the content-read limit. A page must not be
 * created as the bare path `preview` through POST (this route answers); `preview.md` works.
 */
export function previewRoutes(services: Services) {
  const { preview } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/api/v1/content/:workspace/preview',
      {
        config: { rateLimit: 'contentRead' },
        // Refused 401 before the body is looked at.
        preValidation: requireSignedIn,
        schema: { params: contentParams, body: previewInput, response: { 200: pagePreview } },
      },
      async (request) => preview.preview(requireActor(request), request.params.workspace, request.body),
    );
  };
}
