import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { notFound } from '../../errors.js';
import type { Store } from '../../store/database.js';
import * as billing from '../../store/repositories/billing.js';
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
      const rows = await billing.listSubscriptionsWithOrgs(db);
      const subscriptions = [];
      for (const row of rows) {
        subscriptions.push({
          ...row,
          cancel_at_period_end: row.cancel_at_period_end === 1,
          plan: await deps.plans.planIdOf(row.org_id),
        });
      }
      const events = await billing.listRecentStripeEvents(db, input.events);
      return {
        subscriptions,
        events: events.map((e) => ({ ...e, created: new Date(Number(e.created) * 1000).toISOString() })),
      };
    },
  };
}
