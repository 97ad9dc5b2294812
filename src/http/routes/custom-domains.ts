import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../errors.js';
import { allowedDomainInput, customDomainInput } from '../../services/publishing/index.js';
import type { Services } from '../../services/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';
import { noContent } from '../../contract/answers.js';
import { customDomainRecord, domainAllowed } from '../../contract/custom-domains.js';

/**
 * A workspace's custom domain (admins), and the question a TLS terminator asks before it
 * obtains a certificate on demand (Caddy's `on_demand_tls { ask … }`): 200 only for a
 * verified domain, 404 otherwise.
 */
export function customDomainRoutes(services: Services) {
  const { customDomains } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const path = '/api/v1/workspaces/:id/custom-domain';
    const answer = { 200: customDomainRecord };

    app.put(
      path,
      {
        schema: { params: workspaceParams, body: customDomainInput, response: answer },
        preValidation: requireSignedIn,
      },
      async (request) => customDomains.set(requireActor(request), request.params.id, request.body),
    );

    app.get(path, { schema: { params: workspaceParams, response: answer } }, async (request) =>
      customDomains.get(requireActor(request), request.params.id),
    );

    app.delete(
      path,
      { schema: { params: workspaceParams, response: { 204: noContent } } },
      async (request, reply) => {
        await customDomains.remove(requireActor(request), request.params.id);
        return reply.code(204).send();
      },
    );

    const ask = { schema: { querystring: allowedDomainInput, response: { 200: domainAllowed } } };
    app.get('/api/custom-domains/allowed', ask, async (request) => {
      const { domain } = request.query;
      if (!(await customDomains.isAllowed(domain))) throw notFound('Custom domain');
      return { domain, allowed: true };
    });
  };
}
