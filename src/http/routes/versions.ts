import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/index.js';
import { createVersionInput, listVersionsInput } from '../../services/publishing/index.js';
import { requireActor } from '../auth-context.js';
import { parseInput } from '../../domain/validate.js';

type ById = { Params: { id: string } };
type BySlug = { Params: { id: string; slug: string } };

/** Documentation versions (SPEC.md 4.5): list and read for readers, the rest for admins. */
export function versionRoutes(services: Services) {
  const { versions } = services;
  return (app: FastifyInstance) => {
    const base = '/api/v1/workspaces/:id/versions';

    app.get<ById>(base, async (request) =>
      versions.list(requireActor(request), request.params.id, parseInput(listVersionsInput, request.query)),
    );

    app.post<ById>(base, async (request, reply) => {
      const actor = requireActor(request);
      const input = parseInput(createVersionInput, request.body);
      return reply.code(201).send(await versions.create(actor, request.params.id, input));
    });

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
