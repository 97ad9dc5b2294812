import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CloudBilling } from '../../services/billing/index.js';
import { billingOrgInput, checkoutInput, portalInput } from '../../services/billing/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import {
  checkoutSession,
  planLimits,
  planList,
  portalSession,
  subscriptionRecord,
} from '../../contract/billing.js';

const READ = { rateLimit: 'contentRead' } as const;
const WRITE = { rateLimit: 'contentWrite' } as const;

/**
 * The API's billing routes (Cloud edition only: registered only then, so the
 * Community edition answers 404 for every one). Plans are public; the rest are for an
 * organization's Super Admin, by default of the caller's own organization.
 */
export function billingRoutes(cloud: CloudBilling) {
  const { billing } = cloud;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.get('/api/v1/billing/plans', { config: READ, schema: { response: { 200: planList } } }, async () =>
      billing.plans(),
    );
    app.get(
      '/api/v1/billing/limits',
      {
        config: READ,
        schema: { querystring: billingOrgInput, response: { 200: planLimits } },
        preValidation: requireSignedIn,
      },
      async (request) => billing.limits(requireActor(request), request.query),
    );
    app.get(
      '/api/v1/billing/subscription',
      {
        config: READ,
        schema: { querystring: billingOrgInput, response: { 200: subscriptionRecord } },
        preValidation: requireSignedIn,
      },
      async (request) => billing.subscription(requireActor(request), request.query),
    );
    app.post(
      '/api/v1/billing/checkout',
      {
        config: WRITE,
        schema: { body: checkoutInput, response: { 200: checkoutSession } },
        preValidation: requireSignedIn,
      },
      async (request) => billing.checkout(requireActor(request), request.body),
    );
    app.post(
      '/api/v1/billing/portal',
      {
        config: WRITE,
        schema: { body: portalInput.optional(), response: { 200: portalSession } },
        preValidation: requireSignedIn,
      },
      async (request) => billing.portal(requireActor(request), request.body ?? {}),
    );
  };
}
