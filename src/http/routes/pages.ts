import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/index.js';
import {
  createPageInput,
  movePageAliasInput,
  movePageInput,
  updatePageInput,
} from '../../services/pages/index.js';
import { reorderInput } from '../../services/pages/index.js';
import { requireActor } from '../auth-context.js';
import { parseInput } from '../../domain/validate.js';

const READ = { rateLimit: 'contentRead' } as const;
const WRITE = { rateLimit: 'contentWrite' } as const;

type Workspace = { Params: { workspace: string } };
/** `*` is the page path, already percent-decoded by the router; pages.ts normalises and checks it. */
type PagePath = { Params: { workspace: string; '*': string } };

/**
 * SPEC.md 4.2's content routes. `tree`, `reorder` and `move` are registered
 * explicitly (the router prefers them to the wildcard, and page paths may not
 * use those names); `uploads` belongs to the uploads routes.
 */
export function contentRoutes(services: Services) {
  const { pages } = services;
  return (app: FastifyInstance) => {
    const base = '/api/v1/content/:workspace';

    app.get<Workspace>(`${base}/tree`, { config: READ }, async (request) =>
      pages.tree(requireActor(request), request.params.workspace),
    );

    app.post<Workspace>(`${base}/reorder`, { config: WRITE }, async (request, reply) => {
      await pages.reorder(
        requireActor(request),
        request.params.workspace,
        parseInput(reorderInput, request.body),
      );
      return reply.code(204).send();
    });

    app.post<Workspace>(`${base}/move`, { config: WRITE }, async (request) => {
      const actor = requireActor(request);
      const { path, new_path } = parseInput(movePageAliasInput, request.body);
      return pages.move(actor, request.params.workspace, path, new_path);
    });

    app.get<PagePath>(`${base}/*`, { config: READ }, async (request) =>
      pages.read(requireActor(request), request.params.workspace, request.params['*']),
    );

    app.post<PagePath>(`${base}/*`, { config: WRITE }, async (request, reply) => {
      const actor = requireActor(request);
      const input = parseInput(createPageInput, request.body);
      return reply
        .code(201)
        .send(await pages.create(actor, request.params.workspace, request.params['*'], input));
    });

    // 200 for an update; 201 when the PUT created the page.
    app.put<PagePath>(`${base}/*`, { config: WRITE }, async (request, reply) => {
      const actor = requireActor(request);
      const input = parseInput(updatePageInput, request.body);
      const { page, created } = await pages.update(
        actor,
        request.params.workspace,
        request.params['*'],
        input,
      );
      return reply.code(created ? 201 : 200).send(page);
    });

    app.patch<PagePath>(`${base}/*`, { config: WRITE }, async (request) => {
      const actor = requireActor(request);
      const { new_path } = parseInput(movePageInput, request.body);
      return pages.move(actor, request.params.workspace, request.params['*'], new_path);
    });

    app.delete<PagePath>(`${base}/*`, { config: WRITE }, async (request, reply) => {
      await pages.remove(requireActor(request), request.params.workspace, request.params['*']);
      return reply.code(204).send();
    });
  };
}
