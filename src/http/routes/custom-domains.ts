import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';
import { customDomainInput } from '../../services/publishing/index.js';
import type { Services } from '../../services/index.js';
import { requireActor } from '../auth-context.js';
import { parseInput } from '../../domain/validate.js';

type ById = { Params: { id: string } };

/**
 * A workspace's custom domain (admins), and the question a TLS terminator asks before it
 * obtains a certificate on demand (Caddy's `on_demand_tls { ask … }`): 200 only for a
 * verified domain, 404 otherwise.
 */
export function customDomainRoutes(services: Services) {
  const { customDomains } = services;
  return (app: FastifyInstance) => {
    const path = '/api/v1/workspaces/:id/custom-domain';

    app.put<ById>(path, async (request) =>
      customDomains.set(
        requireActor(request),
        request.params.id,
        parseInput(customDomainInput, request.body),
      ),
    );

    app.get<ById>(path, async (request) => customDomains.get(requireActor(request), request.params.id));

    app.delete<ById>(path, async (request, reply) => {
      await customDomains.remove(requireActor(request), request.params.id);
      return reply.code(204).send();
    });

    app.get<{ Querystring: { domain?: unknown } }>('/api/custom-domains/allowed', async (request) => {
      const domain = typeof request.query.domain === 'string' ? request.query.domain : '';
      if (!(await customDomains.isAllowed(domain))) throw notFound('Custom domain');
      return { domain, allowed: true };
    });
  };
}
