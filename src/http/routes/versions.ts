import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';
import { createVersionInput, listVersionsInput } from '../../services/publishing/index.js';
import { noContent } from '../../contract/answers.js';
import { versionDetail, versionList, versionRecord } from '../../contract/versions.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';

type BySlug = { Params: { id: string; slug: string } };

/** Documentation versions: list and read for readers, the rest for admins. */
export function versionRoutes(services: Services) {
  const { versions } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const base = '/api/v1/workspaces/:id/versions';
    const signedIn = { preValidation: requireSignedIn };

    app.get(
      base,
      {
        ...signedIn,
        schema: { params: workspaceParams, querystring: listVersionsInput, response: { 200: versionList } },
      },
      async (request) => versions.list(requireActor(request), request.params.id, request.query),
    );

    app.post(
      base,
      {
        ...signedIn,
        schema: { params: workspaceParams, body: createVersionInput, response: { 201: versionRecord } },
      },
      async (request, reply) => {
        const actor = requireActor(request);
        return reply.code(201).send(await versions.create(actor, request.params.id, request.body));
      },
    );

    app.get<BySlug>(`${base}/:slug`, { schema: { response: { 200: versionDetail } } }, async (request) =>
      versions.get(requireActor(request), request.params.id, request.params.slug),
    );

    app.put<BySlug>(
      `${base}/:slug/default`,
      { schema: { response: { 200: versionRecord } } },
      async (request) => versions.setDefault(requireActor(request), request.params.id, request.params.slug),
    );

    app.delete<BySlug>(
      `${base}/:slug`,
      { schema: { response: { 204: noContent } } },
      async (request, reply) => {
        await versions.remove(requireActor(request), request.params.id, request.params.slug);
        return reply.code(204).send();
      },
    );
  };
}
