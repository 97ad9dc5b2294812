import { requireOrgSuperAdmin } from '../org-super-admin.js';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { requireScope } from '../../domain/policy.js';
import { PLANS, PURCHASABLE_PLANS, planOf, type QuotaName } from '../../domain/plans.js';
import { AppError, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/database.js';
import * as billing from '../../store/repositories/billing.js';
import type { PlanDirectory } from './plan-directory.js';
import type { StripeGateway } from './stripe-gateway.js';

const orgField = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .optional()
  .describe("The organization's handle; default the caller's own");

/** GET /api/v1/billing/limits and /subscription: which organization (a Super Admin's). */
export const billingOrgInput = z.object({ org: orgField });

/** POST /api/v1/billing/checkout: the plan to buy. */
export const checkoutInput = z.object({
  plan: z.enum(PURCHASABLE_PLANS, { error: `plan must be one of ${PURCHASABLE_PLANS.join(', ')}` }),
  org: orgField,
});

/** POST /api/v1/billing/portal. */
export const portalInput = z.object({ org: orgField });

/** The subscription as `GET /api/v1/billing/subscription` answers it. */
export interface SubscriptionRecord {
  org: string;
  plan: string;
  status: string;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  grace_until: string | null;
}

/**
 * Billing for an organization's Super Admin (Cloud edition): its plan, usage against the
 * plan's limits, Stripe Checkout to buy a plan and the Customer Portal to manage it.
 * Someone with no place in the organization gets 404, a member who is not its Super
 * Admin 403.
 */
export function createBilling(deps: {
  store: Store;
  clock: Clock;
  plans: PlanDirectory;
  stripe: StripeGateway;
  publicUrl: string;
}) {
  const db = deps.store.db;

  async function superAdminOrg(actor: Actor, handle: string | undefined) {
    const org = await billing.findOrgForBilling(db, handle ? { handle } : { id: actor.orgId });
    // An API key acts in its own organization only.
    if (!org || (actor.via === 'api_key' && actor.orgId !== org.id)) throw notFound('Organization');
    await requireOrgSuperAdmin(db, actor, org.id, "Only the organization's Super Admin manages its billing");
    return org;
  }

  async function subscriptionOf(orgId: string) {
    return billing.findSubscriptionOfOrg(db, orgId);
  }

  const returnUrl = (outcome?: string) =>
    `${deps.publicUrl}/settings/billing${outcome ? `?checkout=${outcome}` : ''}`;

  return {
    /** The plans, their prices and limits (public: a pricing page needs no account). */
    plans() {
      return { data: Object.values(PLANS) };
    },

    /** Each limit of the organization's plan with its current usage. */
    async limits(actor: Actor, input: z.infer<typeof billingOrgInput>) {
      requireScope(actor, 'read');
      const org = await superAdminOrg(actor, input.org);
      const plan = planOf(await deps.plans.planIdOf(org.id));
      const quotas: QuotaName[] = ['workspaces', 'editors', 'pages'];
      const limits = [];
      for (const name of quotas) {
        limits.push({ name, limit: plan.limits[name], current: await deps.plans.usage[name](org.id) });
      }
      return { org: org.handle, plan: plan.id, limits, features: plan.features };
    },

    /** The organization's plan and subscription state. */
    async subscription(actor: Actor, input: z.infer<typeof billingOrgInput>): Promise<SubscriptionRecord> {
      requireScope(actor, 'read');
      const org = await superAdminOrg(actor, input.org);
      const sub = await subscriptionOf(org.id);
      return {
        org: org.handle,
        plan: await deps.plans.planIdOf(org.id),
        status: sub?.status ?? 'none',
        current_period_end: sub?.current_period_end ?? null,
        cancel_at_period_end: sub?.cancel_at_period_end === 1,
        grace_until: sub?.grace_until ?? null,
      };
    },

    /**
     * A Stripe Checkout Session for the plan's monthly price; answers its URL. The
     * organization's Stripe customer is created on the first checkout and reused after.
     */
    async checkout(actor: Actor, input: z.infer<typeof checkoutInput>): Promise<{ url: string; id: string }> {
      requireScope(actor, 'write');
      const org = await superAdminOrg(actor, input.org);
      if (planOf(await deps.plans.planIdOf(org.id)).id === 'enterprise') {
        throw new AppError(
          'CONFLICT',
          'This organization is on the Enterprise plan; contact the platform owner',
        );
      }
      const customer = await customerOf(actor, org);
      const plan = PLANS[input.plan];
      const metadata = { org_id: org.id, plan: plan.id };
      return deps.stripe.createCheckoutSession({
        mode: 'subscription',
        customer,
        client_reference_id: org.id,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: plan.currency,
              unit_amount: plan.monthly_price_cents ?? 0,
              recurring: { interval: 'month' },
              product_data: { name: `Folio ${plan.name}` },
            },
          },
        ],
        metadata,
        subscription_data: { metadata },
        success_url: returnUrl('success'),
        cancel_url: returnUrl('cancelled'),
      });
    },

    /** A Customer Portal session to change or cancel the plan; 409 before any checkout. */
    async portal(actor: Actor, input: z.infer<typeof portalInput>): Promise<{ url: string }> {
      requireScope(actor, 'write');
      const org = await superAdminOrg(actor, input.org);
      const customer = (await subscriptionOf(org.id))?.stripe_customer_id;
      if (!customer) {
        throw new AppError('CONFLICT', 'This organization has no subscription to manage yet; upgrade first');
      }
      return deps.stripe.createPortalSession({ customer, returnUrl: returnUrl() });
    },
  };

  /** The organization's Stripe customer, created (and remembered) on first need. */
  async function customerOf(actor: Actor, org: { id: string; name: string }): Promise<string> {
    const existing = (await subscriptionOf(org.id))?.stripe_customer_id;
    if (existing) return existing;
    const email = await billing.findUserEmail(db, actor.userId);
    const { id } = await deps.stripe.createCustomer({
      email: email ?? '',
      name: org.name,
      orgId: org.id,
    });
    const now = deps.clock.now().toISOString();
    await billing.saveStripeCustomer(db, org.id, id, now);
    return id;
  }
}

export type BillingService = ReturnType<typeof createBilling>;
