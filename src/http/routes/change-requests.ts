import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';
import {
  changeRequestParams,
  createChangeRequestInput,
  listChangeRequestsInput,
  reviewChangeRequestInput,
} from '../../services/change-requests/index.js';
import {
  changeRequestDetail,
  changeRequestList,
  changeRequestRecord,
  reviewRecord,
} from '../../contract/change-requests.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';

/**
 * Change requests of a workspace: open, list, read (pages, diff, reviews), review, merge
 * and close. Editing pages inside one is the content API with `?change_request=<n>`.
 */
export function changeRequestRoutes(services: Services) {
  const { changeRequests } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const base = '/api/v1/workspaces/:id/change-requests';
    const signedIn = { preValidation: requireSignedIn };

    app.get(
      base,
      {
        schema: {
          params: workspaceParams,
          querystring: listChangeRequestsInput,
          response: { 200: changeRequestList },
        },
      },
      async (request) => changeRequests.list(requireActor(request), request.params.id, request.query),
    );

    app.post(
      base,
      {
        ...signedIn,
        schema: {
          params: workspaceParams,
          body: createChangeRequestInput,
          response: { 201: changeRequestRecord },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await changeRequests.create(requireActor(request), request.params.id, request.body)),
    );

    app.get(
      `${base}/:n`,
      { schema: { params: changeRequestParams, response: { 200: changeRequestDetail } } },
      async (request) => changeRequests.get(requireActor(request), request.params.id, request.params.n),
    );

    app.post(
      `${base}/:n/reviews`,
      {
        ...signedIn,
        schema: {
          params: changeRequestParams,
          body: reviewChangeRequestInput,
          response: { 201: reviewRecord },
        },
      },
      async (request, reply) => {
        const { id, n } = request.params;
        return reply.code(201).send(await changeRequests.review(requireActor(request), id, n, request.body));
      },
    );

    app.post(
      `${base}/:n/merge`,
      { ...signedIn, schema: { params: changeRequestParams, response: { 200: changeRequestRecord } } },
      async (request) => changeRequests.merge(requireActor(request), request.params.id, request.params.n),
    );

    app.post(
      `${base}/:n/close`,
      { ...signedIn, schema: { params: changeRequestParams, response: { 200: changeRequestRecord } } },
      async (request) => changeRequests.close(requireActor(request), request.params.id, request.params.n),
    );
  };
}
