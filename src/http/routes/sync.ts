import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../services/index.js';
import { conflictDownloadParams, resolveConflictInput } from '../../services/sync/index.js';
import {
  conflictDetail,
  conflictDismissed,
  conflictList,
  conflictResolved,
  syncResult,
} from '../../contract/sync.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';

const READ = { rateLimit: 'contentRead' } as const;
const WRITE = { rateLimit: 'contentWrite' } as const;

type ById = { Params: { id: string } };
type ByConflict = { Params: { id: string; conflict_id: string } };
type ByArtefact = { Params: { page_id: string; timestamp: string } };

/** One side of a conflict as written: Markdown for a page, plain text for another file. */
const conflictFile = {
  description: 'The file as that side wrote it, as an attachment',
  content: {
    'text/markdown': { schema: z.string() },
    'text/plain': { schema: z.string() },
  },
};

/**
 * The API's sync and conflict routes (the webhook is in git-webhook.ts).
 * `:id` takes the workspace id or slug; a workspace the caller cannot read is 404.
 */
export function syncRoutes(services: Services) {
  const git = services.gitSync;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.post<ById>(
      '/api/v1/workspaces/:id/sync',
      { config: WRITE, schema: { response: { 200: syncResult } } },
      async (request) => git.sync(requireActor(request), request.params.id),
    );

    app.get<ById>(
      '/api/v1/workspaces/:id/conflicts',
      { config: READ, schema: { response: { 200: conflictList } } },
      async (request) => git.listConflicts(requireActor(request), request.params.id),
    );

    app.get<ByConflict>(
      '/api/v1/workspaces/:id/sync/conflicts/:conflict_id',
      { config: READ, schema: { response: { 200: conflictDetail } } },
      async (request) =>
        git.getConflict(requireActor(request), request.params.id, request.params.conflict_id),
    );

    app.post(
      '/api/v1/workspaces/:id/sync/conflicts/:conflict_id/resolve',
      {
        config: WRITE,
        schema: {
          params: workspaceParams.extend({ conflict_id: z.string() }),
          body: resolveConflictInput,
          response: { 200: conflictResolved },
        },
        preValidation: requireSignedIn,
      },
      async (request) => {
        const actor = requireActor(request);
        return git.resolveConflict(actor, request.params.id, request.params.conflict_id, request.body);
      },
    );

    app.get(
      '/api/v1/conflicts/:page_id/:timestamp/:version',
      {
        config: READ,
        schema: { params: conflictDownloadParams, response: { 200: conflictFile } },
        preValidation: requireSignedIn,
      },
      async (request, reply) => {
        const actor = requireActor(request);
        const { page_id, timestamp, version } = request.params;
        const file = await git.downloadConflict(actor, page_id, timestamp, version);
        reply.header(
          'Content-Type',
          file.markdown ? 'text/markdown; charset=utf-8' : 'text/plain; charset=utf-8',
        );
        reply.header(
          'Content-Disposition',
          `attachment; filename="${version}${file.markdown ? '.md' : '.txt'}"`,
        );
        return reply.send(file.text);
      },
    );

    app.post<ByArtefact>(
      '/api/v1/conflicts/:page_id/:timestamp/resolve',
      { config: WRITE, schema: { response: { 200: conflictDismissed } } },
      async (request) =>
        git.dismissConflict(requireActor(request), request.params.page_id, request.params.timestamp),
    );
  };
}
