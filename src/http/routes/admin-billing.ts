import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../errors.js';
import { adminBillingInput, type CloudBilling } from '../../services/billing/index.js';
import { requireActor } from '../auth-context.js';
import { adminBillingOverview } from '../../contract/billing.js';

/**
 * `GET /api/v1/admin/billing` (Cloud edition): the platform owner's billing overview,
 * subscriptions and recent Stripe events. Everyone else, signed in or not, gets 404.
 */
export function adminBillingRoutes(cloud: CloudBilling) {
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/v1/admin/billing',
      {
        config: { rateLimit: 'contentRead' },
        schema: { querystring: adminBillingInput, response: { 200: adminBillingOverview } },
        // Before the query is validated, so a stranger learns nothing from a 400.
        preValidation: async (request) => {
          if (!request.actor?.isPlatformOwner) throw notFound();
        },
      },
      async (request) => cloud.adminBilling.overview(requireActor(request), request.query),
    );
  };
}
