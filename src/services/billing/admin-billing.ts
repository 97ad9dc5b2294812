import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { notFound } from '../../errors.js';
import type { Store } from '../../store/database.js';
import type { PlanDirectory } from './plan-directory.js';

/** GET /api/v1/admin/billing: how many recent Stripe events to show. */
export const adminBillingInput = z.object({
  events: z.coerce.number().int().min(1).max(500).default(50),
});

/**
 * The platform owner's billing overview: every organization that has been to Stripe with
 * its subscription, and the most recent Stripe events with what was done with each.
 * Anyone else gets 404, so the route does not reveal itself; an API key of the owner
 * needs the `admin` or `admin:read` scope.
 */
export function createAdminBilling(deps: { store: Store; plans: PlanDirectory }) {
  const db = deps.store.db;

  function requireOwner(actor: Actor): void {
    const scoped = actor.scopes === null || actor.scopes.some((s) => s === 'admin' || s === 'admin:read');
    if (!actor.isPlatformOwner || !scoped) throw notFound();
  }

  return {
    async overview(actor: Actor, input: z.infer<typeof adminBillingInput>) {
      requireOwner(actor);
      const rows = await db
        .selectFrom('billing_subscriptions')
        .innerJoin('orgs', 'orgs.id', 'billing_subscriptions.org_id')
        .select([
          'orgs.id as org_id',
          'orgs.handle',
          'orgs.name',
          'billing_subscriptions.plan as subscribed_plan',
          'billing_subscriptions.status',
          'billing_subscriptions.current_period_end',
          'billing_subscriptions.cancel_at_period_end',
          'billing_subscriptions.grace_until',
          'billing_subscriptions.stripe_customer_id',
          'billing_subscriptions.stripe_subscription_id',
          'billing_subscriptions.updated_at',
        ])
        .orderBy('billing_subscriptions.updated_at', 'desc')
        .execute();
      const subscriptions = [];
      for (const row of rows) {
        subscriptions.push({
          ...row,
          cancel_at_period_end: row.cancel_at_period_end === 1,
          plan: await deps.plans.planIdOf(row.org_id),
        });
      }
      const events = await db
        .selectFrom('stripe_events')
        .selectAll()
        .orderBy('received_at', 'desc')
        .orderBy('id', 'desc')
        .limit(input.events)
        .execute();
      return {
        subscriptions,
        events: events.map((e) => ({ ...e, created: new Date(Number(e.created) * 1000).toISOString() })),
      };
    },
  };
}
