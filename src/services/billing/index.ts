import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/database.js';
import { createAdminBilling } from './admin-billing.js';
import { createBilling } from './billing.js';
import { createCloudPlanLimits } from './cloud-plan-limits.js';
import { createPlanDirectory } from './plan-directory.js';
import { createStripeEvents } from './stripe-events.js';
import { createStripeGateway, type StripeGateway } from './stripe-gateway.js';

export { adminBillingInput } from './admin-billing.js';
export { billingOrgInput, checkoutInput, portalInput } from './billing.js';
export type { StripeGateway } from './stripe-gateway.js';

/**
 * The Cloud edition's plans and billing, built only when EDITION=cloud: the plan-backed
 * limits the other services consult, the billing service, Stripe's webhook events and
 * the platform owner's overview.
 */
export function createCloudBilling(deps: {
  config: Config;
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Replaces the Stripe SDK (tests of failure paths); the SDK over STRIPE_API_BASE by default. */
  stripe?: StripeGateway;
}) {
  const { store, clock } = deps;
  const plans = createPlanDirectory({ store, clock });
  const stripe = deps.stripe ?? createStripeGateway(deps.config.stripe);
  const events = createStripeEvents({ store, clock, logger: deps.logger, onPlanChange: plans.forget });
  return {
    plans,
    planLimits: createCloudPlanLimits(plans),
    billing: createBilling({ store, clock, plans, stripe, publicUrl: deps.config.publicUrl }),
    adminBilling: createAdminBilling({ store, plans }),
    stripeWebhook: {
      /** Verifies the raw body's signature, then processes the event once (see stripe-events.ts). */
      async receive(rawBody: Buffer, signature: string | undefined) {
        const event = await stripe.verifyEvent(rawBody, signature ?? '', clock.now().getTime());
        return { received: true, outcome: await events.handle(event) };
      },
    },
  };
}

export type CloudBilling = ReturnType<typeof createCloudBilling>;
