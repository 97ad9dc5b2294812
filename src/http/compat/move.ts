import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../services/index.js';
import { updatePageInput } from '../../services/pages/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { pageParams } from '../route-params.js';
import { deprecatedRoute, paramsOf } from './layout.js';

/** Layout B's move: `{ move_to }` on the page's path. */
const moveToInput = z.strictObject({
  move_to: z
    .string({ error: 'move_to is required' })
    .min(1)
    .describe('The new path, e.g. "guides/setup.md".'),
});

const pagePath = (request: FastifyRequest) => {
  const params = paramsOf(request);
  return `/api/v1/content/${encodeURIComponent(params.workspace ?? '')}/${params['*'] ?? ''}`;
};

/**
 * Layout B's `PUT /api/v1/content/:workspace/*` (with `Folio-Layout: B`): a body with
 * `move_to` moves the page as the current `PATCH { new_path }` does (page_id kept, an alias
 * left at the old path, wikilinks rewritten); any other body is the current update.
 */
export function moveCompatRoutes(services: Services) {
  const { pages } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const d = deprecatedRoute(pagePath, 'Layout B: PUT with move_to moves the page', { headerVariant: true });
    app.put(
      '/api/v1/content/:workspace/*',
      {
        onSend: d.onSend,
        constraints: { layout: 'B' },
        config: { rateLimit: 'contentWrite' },
        preValidation: requireSignedIn,
        schema: { ...d.schema, params: pageParams, body: z.union([moveToInput, updatePageInput]) },
      },
      async (request, reply) => {
        const { workspace, '*': path } = request.params;
        const actor = requireActor(request);
        if ('move_to' in request.body) return pages.move(actor, workspace, path, request.body.move_to);
        const { page, created } = await pages.update(actor, workspace, path, request.body);
        return reply.code(created ? 201 : 200).send(page);
      },
    );
  };
}
