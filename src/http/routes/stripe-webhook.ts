import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import type { CloudBilling } from '../../services/billing/index.js';
import { stripeWebhookReceipt } from '../../contract/billing.js';
import { ownScope } from '../route-scopes.js';

/**
 * `POST /api/webhooks/stripe` (Cloud edition): Stripe's events. The signature covers the
 * exact bytes sent, so this scope keeps the body raw and nothing reads it before the SDK's
 * verifier has accepted it (bad signature or stale timestamp: 400, nothing changed). Not
 * rate limited: Stripe sends bursts, and a forged request costs one HMAC.
 */
export function stripeWebhookRoutes(cloud: CloudBilling) {
  return ownScope((scope: FastifyInstance) => {
    // Typed by the response schemas: a service answer that drifts from its record does not compile.
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    const receipt = { response: { 200: stripeWebhookReceipt } };
    app.post('/api/webhooks/stripe', { config: { auth: 'none' }, schema: receipt }, async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      return cloud.stripeWebhook.receive(raw, typeof signature === 'string' ? signature : undefined);
    });
  });
}
