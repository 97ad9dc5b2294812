import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';
import {
  createPageInput,
  movePageAliasInput,
  movePageInput,
  updatePageInput,
} from '../../services/pages/index.js';
import { reorderInput } from '../../services/pages/index.js';
import { changeRequestQuery } from '../../services/change-requests/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { acceptsGzip } from '../accepts-gzip.js';
import { layoutBMoveHook } from '../compat/move.js';
import { noContent } from '../../contract/answers.js';
import { pageObject, pageTree } from '../../contract/pages.js';
import { contentParams, pageParams } from '../route-params.js';

const READ = { rateLimit: 'contentRead' } as const;

/** `?change_request=<n>` as the pages service's choice of tree: that request's branch, else the live tree. */
const where = (query: { change_request?: number | undefined }) => ({ changeRequest: query.change_request });
const WRITE = { rateLimit: 'contentWrite' } as const;

/**
 * The API's content routes. `tree`, `reorder` and `move` are registered
 * explicitly (the router prefers them to the wildcard, and page paths may not
 * use those names); `uploads` belongs to the uploads routes.
 */
export function contentRoutes(services: Services) {
  const { pages } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const base = '/api/v1/content/:workspace';
    // Refused 401 before the body is looked at.
    const write = { config: WRITE, preValidation: requireSignedIn };

    // Sent as the cached serialised text, so typed by hand rather than by the schemas.
    scope.get<{ Params: { workspace: string } }>(
      `${base}/tree`,
      { config: READ, schema: { params: contentParams, response: { 200: pageTree } } },
      async (request, reply) => {
        const tree = await pages.treeDocument(requireActor(request), request.params.workspace);
        // Revalidated on every use, answered 304 while unchanged; gzipped, a 5,000-page
        // tree is about a tenth of its size.
        reply
          .header('ETag', tree.etag)
          .header('Cache-Control', 'private, no-cache')
          .header('Vary', 'Accept-Encoding');
        if (request.headers['if-none-match'] === tree.etag) return reply.code(304).send();
        reply.type('application/json; charset=utf-8');
        if (!acceptsGzip(request)) return reply.send(tree.json);
        return reply.header('Content-Encoding', 'gzip').send(await tree.gzipped());
      },
    );

    app.post(
      `${base}/reorder`,
      { ...write, schema: { params: contentParams, body: reorderInput, response: { 204: noContent } } },
      async (request, reply) => {
        await pages.reorder(requireActor(request), request.params.workspace, request.body);
        return reply.code(204).send();
      },
    );

    app.post(
      `${base}/move`,
      {
        ...write,
        schema: {
          params: contentParams,
          querystring: changeRequestQuery,
          body: movePageAliasInput,
          response: { 200: pageObject },
        },
      },
      async (request) => {
        const { path, new_path } = request.body;
        const { workspace } = request.params;
        return pages.move(requireActor(request), workspace, path, new_path, where(request.query));
      },
    );

    // `*` is the page path, already percent-decoded by the router; pages.ts normalises and checks it.
    app.get(
      `${base}/*`,
      {
        config: READ,
        schema: { params: pageParams, querystring: changeRequestQuery, response: { 200: pageObject } },
      },
      async (request) => {
        const { workspace, '*': path } = request.params;
        return pages.read(requireActor(request), workspace, path, where(request.query));
      },
    );

    app.post(
      `${base}/*`,
      {
        ...write,
        schema: {
          params: pageParams,
          querystring: changeRequestQuery,
          body: createPageInput,
          response: { 201: pageObject },
        },
      },
      async (request, reply) => {
        const { workspace, '*': path } = request.params;
        const actor = requireActor(request);
        const page = await pages.create(actor, workspace, path, request.body, where(request.query));
        return reply.code(201).send(page);
      },
    );

    // Layout B's `{ move_to }` needs no header: the current update has no such field.
    const layoutBMove = layoutBMoveHook((actor, workspace, path, newPath, changeRequest) =>
      pages.move(actor, workspace, path, newPath, { changeRequest }),
    );
    // 200 for an update; 201 when the PUT created the page.
    app.put(
      `${base}/*`,
      {
        ...write,
        preValidation: [requireSignedIn, layoutBMove],
        schema: {
          params: pageParams,
          querystring: changeRequestQuery,
          body: updatePageInput,
          response: { 200: pageObject, 201: pageObject },
        },
      },
      async (request, reply) => {
        const { workspace, '*': path } = request.params;
        const actor = requireActor(request);
        const { page, created } = await pages.update(
          actor,
          workspace,
          path,
          request.body,
          where(request.query),
        );
        return reply.code(created ? 201 : 200).send(page);
      },
    );

    app.patch(
      `${base}/*`,
      {
        ...write,
        schema: {
          params: pageParams,
          querystring: changeRequestQuery,
          body: movePageInput,
          response: { 200: pageObject },
        },
      },
      async (request) => {
        const { workspace, '*': path } = request.params;
        const { new_path } = request.body;
        return pages.move(requireActor(request), workspace, path, new_path, where(request.query));
      },
    );

    app.delete(
      `${base}/*`,
      {
        config: WRITE,
        schema: { params: pageParams, querystring: changeRequestQuery, response: { 204: noContent } },
      },
      async (request, reply) => {
        const { workspace, '*': path } = request.params;
        await pages.remove(requireActor(request), workspace, path, where(request.query));
        return reply.code(204).send();
      },
    );
  };
}
