import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';
import { createVersionInput, listVersionsInput } from '../../services/publishing/index.js';
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
      { ...signedIn, schema: { params: workspaceParams, querystring: listVersionsInput } },
      async (request) => versions.list(requireActor(request), request.params.id, request.query),
    );

    app.post(
      base,
      { ...signedIn, schema: { params: workspaceParams, body: createVersionInput } },
      async (request, reply) => {
        const actor = requireActor(request);
        return reply.code(201).send(await versions.create(actor, request.params.id, request.body));
      },
    );

    app.get<BySlug>(`${base}/:slug`, async (request) =>
      versions.get(requireActor(request), request.params.id, request.params.slug),
    );

    app.put<BySlug>(`${base}/:slug/default`, async (request) =>
      versions.setDefault(requireActor(request), request.params.id, request.params.slug),
    );

    app.delete<BySlug>(`${base}/:slug`, async (request, reply) => {
      await versions.remove(requireActor(request), request.params.id, request.params.slug);
      return reply.code(204).send();
    });
  };
}
