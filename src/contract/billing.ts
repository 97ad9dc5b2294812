import { z } from 'zod';
import { PLAN_IDS } from '../domain/plans.js';
import { record, timestamp } from './shape.js';

const planId = z.enum(PLAN_IDS);
const quotas = record({
  workspaces: z.number().int().nullable(),
  editors: z.number().int().nullable(),
  pages: z.number().int().nullable(),
}).describe('null: no limit');
const features = record({ analytics: z.boolean() });

/** A plan with its price and limits. */
export const planRecord = record({
  id: planId,
  name: z.string(),
  monthly_price_cents: z.number().int().nullable().describe('null: agreed separately'),
  currency: z.string(),
  limits: quotas,
  features,
});
export type Plan = z.infer<typeof planRecord>;

/** `GET /api/v1/billing/plans`: every plan (public). */
export const planList = record({ data: z.array(planRecord) });
export type PlanList = z.infer<typeof planList>;

/** Each limit of the organization's plan with its current usage. */
export const planLimits = record({
  org: z.string(),
  plan: planId,
  limits: z.array(
    record({
      name: z.enum(['workspaces', 'editors', 'pages']),
      limit: z.number().int().nullable(),
      current: z.number().int(),
    }),
  ),
  features,
});
export type PlanLimits = z.infer<typeof planLimits>;

/** The organization's plan and subscription state. */
export const subscriptionRecord = record({
  org: z.string(),
  plan: z.string(),
  status: z.string(),
  current_period_end: timestamp.nullable(),
  cancel_at_period_end: z.boolean(),
  grace_until: timestamp.nullable().describe('Paid features stay until then after a failed payment'),
});
export type Subscription = z.infer<typeof subscriptionRecord>;

/** Stripe Checkout: where to send the buyer. */
export const checkoutSession = record({ url: z.string(), id: z.string() });
export type CheckoutSession = z.infer<typeof checkoutSession>;

/** Stripe's Customer Portal: where to send the Super Admin. */
export const portalSession = record({ url: z.string() });
export type PortalSession = z.infer<typeof portalSession>;

/** The platform owner's billing overview: subscriptions and the latest Stripe events. */
export const adminBillingOverview = record({
  subscriptions: z.array(
    record({
      org_id: z.string(),
      handle: z.string(),
      name: z.string(),
      plan: planId.describe('The plan that applies now'),
      subscribed_plan: z.string(),
      status: z.string(),
      current_period_end: timestamp.nullable(),
      cancel_at_period_end: z.boolean(),
      grace_until: timestamp.nullable(),
      stripe_customer_id: z.string().nullable(),
      stripe_subscription_id: z.string().nullable(),
      updated_at: timestamp,
    }),
  ),
  events: z.array(
    record({
      id: z.string(),
      type: z.string(),
      created: timestamp,
      org_id: z.string().nullable(),
      outcome: z.string().describe('applied, stale or ignored'),
      received_at: timestamp,
    }),
  ),
});

/** `POST /api/webhooks/stripe`: the event was taken, and what was done with it. */
export const stripeWebhookReceipt = record({ received: z.boolean(), outcome: z.string() });
