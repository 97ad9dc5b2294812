import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { parseInput } from '../../domain/validate.js';
import { changeRequestQuery } from '../../services/change-requests/index.js';
import type { Services } from '../../services/index.js';
import { updatePageInput } from '../../services/pages/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { pageParams } from '../route-params.js';
import { deprecatedRoute, markDeprecated, paramsOf } from './layout.js';

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

/** Whether a PUT body is Layout B's move: it carries `move_to`, a field no current update has. */
function asksToMove(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, 'move_to');
}

/** Moves a page, on the live tree or on change request `changeRequest`'s branch. */
export type MovePage = (
  actor: Actor,
  workspace: string,
  path: string,
  newPath: string,
  changeRequest: number | undefined,
) => Promise<unknown>;

/**
 * A `preValidation` hook for the current `PUT /api/v1/content/:workspace/*`: a body with
 * `move_to` is Layout B's move, served without `Folio-Layout: B`. The current update has no
 * such field, so the two conflict in nothing, and older clients never send a header that
 * did not exist in their day. Any other body goes on to the update.
 * Runs after the route's sign-in check; its answer carries the deprecation headers.
 */
export function layoutBMoveHook(move: MovePage) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!asksToMove(request.body)) return;
    markDeprecated(request, reply, pagePath);
    const params = parseInput(pageParams, request.params);
    const query = parseInput(changeRequestQuery, request.query);
    const { move_to } = parseInput(moveToInput, request.body);
    const moved = await move(
      requireActor(request),
      params.workspace,
      params['*'],
      move_to,
      query.change_request,
    );
    return reply.send(moved);
  };
}

/**
 * Layout B's `PUT /api/v1/content/:workspace/*` with `Folio-Layout: B`: a body with
 * `move_to` moves the page as the current `PATCH { new_path }` does (page_id kept, an alias
 * left at the old path, wikilinks rewritten); any other body is the current update, marked
 * deprecated. Without the header the current route serves the same move (`layoutBMoveHook`).
 */
export function moveCompatRoutes(services: Services) {
  const { pages } = services;
  const move: MovePage = (actor, workspace, path, newPath) => pages.move(actor, workspace, path, newPath);
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const d = deprecatedRoute(pagePath, 'Layout B: PUT with move_to moves the page', { headerVariant: true });
    app.put(
      '/api/v1/content/:workspace/*',
      {
        onSend: d.onSend,
        constraints: { layout: 'B' },
        config: { rateLimit: 'contentWrite' },
        preValidation: [requireSignedIn, layoutBMoveHook(move)],
        schema: { ...d.schema, params: pageParams, body: updatePageInput },
      },
      async (request, reply) => {
        const { workspace, '*': path } = request.params;
        const { page, created } = await pages.update(requireActor(request), workspace, path, request.body);
        return reply.code(created ? 201 : 200).send(page);
      },
    );
  };
}
