import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  commitParams,
  deletedPagesInput,
  pageAtCommitInput,
  pageDiffInput,
  pageHistoryInput,
  restorePageInput,
} from '../../services/history/index.js';
import type { Services } from '../../services/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';
import {
  deletedPageList,
  pageAtCommit,
  pageDiff,
  restoredPage,
  revisionList,
} from '../../contract/history.js';

const READ = { rateLimit: 'contentRead' } as const;
const WRITE = { rateLimit: 'contentWrite' } as const;

/**
 * Page history (reads for readers, restore for editors). `diff` and `deleted` are static
 * routes, which the router prefers to `:commit`; a commit id is hex, so neither is one.
 */
export function historyRoutes(services: Services) {
  const { history } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const base = '/api/v1/workspaces/:id/history';
    const read = { config: READ, preValidation: requireSignedIn };

    app.get(
      base,
      {
        ...read,
        schema: { params: workspaceParams, querystring: pageHistoryInput, response: { 200: revisionList } },
      },
      async (request) => history.list(requireActor(request), request.params.id, request.query),
    );

    app.get(
      `${base}/diff`,
      {
        ...read,
        schema: { params: workspaceParams, querystring: pageDiffInput, response: { 200: pageDiff } },
      },
      async (request) => history.diff(requireActor(request), request.params.id, request.query),
    );

    app.get(
      `${base}/deleted`,
      {
        ...read,
        schema: {
          params: workspaceParams,
          querystring: deletedPagesInput,
          response: { 200: deletedPageList },
        },
      },
      async (request) => history.deleted(requireActor(request), request.params.id, request.query),
    );

    app.post(
      `${base}/restore`,
      {
        config: WRITE,
        preValidation: requireSignedIn,
        schema: {
          params: workspaceParams,
          body: restorePageInput,
          response: { 200: restoredPage, 201: restoredPage },
        },
      },
      async (request, reply) => {
        const restored = await history.restore(requireActor(request), request.params.id, request.body);
        return reply.code(restored.created ? 201 : 200).send(restored);
      },
    );

    app.get(
      `${base}/:commit`,
      {
        ...read,
        schema: { params: commitParams, querystring: pageAtCommitInput, response: { 200: pageAtCommit } },
      },
      async (request) =>
        history.at(requireActor(request), request.params.id, request.params.commit, request.query),
    );
  };
}
