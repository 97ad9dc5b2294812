import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../services/index.js';
import { createPageByIdInput, listPagesByIdInput, updatePageByIdInput } from '../../services/pages/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';
import { deprecatedRoute, paramsOf } from './layout.js';

const pageIdParams = workspaceParams.extend({ page_id: z.string().describe('The page_id') });
/** The current equivalent: the workspace's pages by path. */
const byPath = (request: FastifyRequest) =>
  `/api/v1/content/${encodeURIComponent(paramsOf(request).id ?? '')}/`;

/**
 * Layout C's pages by id: `GET, POST /api/v1/workspaces/:id/pages`,
 * `GET, PUT, DELETE …/pages/:page_id`, over the pages-by-id service.
 */
export function pagesByIdCompatRoutes(services: Services) {
  const { pagesById } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const base = '/api/v1/workspaces/:id/pages';
    const read = (summary: string) => {
      const d = deprecatedRoute(byPath, summary);
      return {
        onSend: d.onSend,
        config: { rateLimit: 'contentRead' },
        schema: d.schema,
        preValidation: requireSignedIn,
      } as const;
    };
    const write = (summary: string) => ({ ...read(summary), config: { rateLimit: 'contentWrite' } }) as const;

    const list = read('Layout C: list pages with offset pagination');
    app.get(
      base,
      { ...list, schema: { ...list.schema, params: workspaceParams, querystring: listPagesByIdInput } },
      async (request) => pagesById.list(requireActor(request), request.params.id, request.query),
    );

    const create = write('Layout C: create a page (below parent_id)');
    app.post(
      base,
      { ...create, schema: { ...create.schema, params: workspaceParams, body: createPageByIdInput } },
      async (request, reply) =>
        reply.code(201).send(await pagesById.create(requireActor(request), request.params.id, request.body)),
    );

    const one = read('Layout C: one page by id');
    app.get(
      `${base}/:page_id`,
      { ...one, schema: { ...one.schema, params: pageIdParams } },
      async (request) => pagesById.read(requireActor(request), request.params.id, request.params.page_id),
    );

    const update = write('Layout C: update a page by id; content_hash is the hash last read');
    app.put(
      `${base}/:page_id`,
      { ...update, schema: { ...update.schema, params: pageIdParams, body: updatePageByIdInput } },
      async (request) =>
        pagesById.update(requireActor(request), request.params.id, request.params.page_id, request.body),
    );

    const remove = write('Layout C: delete a page by id');
    app.delete(
      `${base}/:page_id`,
      { ...remove, schema: { ...remove.schema, params: pageIdParams } },
      async (request, reply) => {
        await pagesById.remove(requireActor(request), request.params.id, request.params.page_id);
        return reply.code(204).send();
      },
    );
  };
}
