import type Stripe from 'stripe';
import { GRACE_PERIOD_MS, inArrears, isPlanId, type PlanId, planGranted } from '../../domain/plans.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/database.js';
import * as billing from '../../store/repositories/billing.js';
import type { Queryable } from '../../store/repositories/queryable.js';
import type { BillingSubscriptionRow } from '../../store/schema.js';

/** How long received event ids (and the overview's log) are kept. */
const EVENT_RETENTION_MS = 90 * 24 * 3600 * 1000;

/** What became of one delivered event. */
export type EventOutcome = 'applied' | 'stale' | 'ignored' | 'duplicate';

/** The subscription state an event leads to, merged over the stored one. */
type StateChange = Partial<
  Pick<
    BillingSubscriptionRow,
    | 'stripe_customer_id'
    | 'stripe_subscription_id'
    | 'plan'
    | 'status'
    | 'current_period_end'
    | 'cancel_at_period_end'
    | 'grace_until'
  >
>;

type Obj = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** An id field that may be expanded into its object. */
const idOf = (v: unknown): string | undefined => str(v) ?? str((v as Obj | null)?.id);
const metadataOf = (o: Obj): Obj => ((o.metadata ?? {}) as Obj) ?? {};
const isoFromUnix = (v: unknown): string | null =>
  typeof v === 'number' && Number.isFinite(v) ? new Date(v * 1000).toISOString() : null;

export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const;

/** The subscription an invoice belongs to, in the API versions before and after 2025's `parent`. */
function invoiceSubscription(invoice: Obj): string | undefined {
  const parent = invoice.parent as { subscription_details?: { subscription?: unknown } } | undefined;
  return idOf(invoice.subscription) ?? idOf(parent?.subscription_details?.subscription);
}

/** A subscription's period end: on the object in older API versions, on its items since 2025. */
function periodEnd(sub: Obj): string | null {
  const items = (sub.items as { data?: Array<{ current_period_end?: unknown }> } | undefined)?.data ?? [];
  return isoFromUnix(sub.current_period_end ?? items[0]?.current_period_end);
}

/**
 * Applies Stripe's subscription lifecycle to organizations' plans. Each event id is
 * recorded in `stripe_events` in the same transaction as its effect, so a resent event
 * does nothing the second time; an event older (by Stripe's `created`) than the state
 * already applied is recorded as stale and changes nothing, so arrival order does not
 * matter. Content is never touched: only `orgs.plan` and the subscription row change.
 */
export function createStripeEvents(deps: {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Called after an organization's plan may have changed (cached rate tiers). */
  onPlanChange: (orgId: string) => void;
}) {
  const db = deps.store.db;

  /** The organization an event is about: the metadata Folio set at checkout, else the customer. */
  async function orgOf(trx: Queryable, object: Obj): Promise<string | undefined> {
    const fromMetadata = str(metadataOf(object).org_id) ?? str(object.client_reference_id);
    const customer = idOf(object.customer);
    if (fromMetadata) {
      if (await billing.orgExists(trx, fromMetadata)) return fromMetadata;
    }
    if (!customer) return undefined;
    return billing.findOrgIdOfStripeCustomer(trx, customer);
  }

  /** The state change an event asks for, or null when it concerns nothing Folio tracks. */
  function changeFor(event: Stripe.Event, object: Obj, current: BillingSubscriptionRow | undefined) {
    const plan = str(metadataOf(object).plan);
    const planPart = plan && isPlanId(plan) ? { plan } : {};
    const customer = idOf(object.customer);
    const customerPart = customer ? { stripe_customer_id: customer } : {};
    switch (event.type) {
      case 'checkout.session.completed':
        if (object.mode !== 'subscription') return null;
        return {
          ...customerPart,
          ...planPart,
          stripe_subscription_id: idOf(object.subscription) ?? null,
          status: 'active',
          grace_until: null,
        } satisfies StateChange;
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const id = idOf(object.id);
        // A canceled subscription is final: a late event about it cannot bring it back.
        if (current?.status === 'canceled' && current.stripe_subscription_id === id) return 'stale';
        const status =
          event.type === 'customer.subscription.deleted' ? 'canceled' : (str(object.status) ?? 'active');
        return {
          ...customerPart,
          ...planPart,
          stripe_subscription_id: id ?? null,
          status,
          current_period_end: periodEnd(object),
          cancel_at_period_end: object.cancel_at_period_end === true ? 1 : 0,
          grace_until: inArrears(status) ? (current?.grace_until ?? graceFrom(event)) : null,
        } satisfies StateChange;
      }
      case 'invoice.paid':
        if (!invoiceSubscription(object)) return null;
        return { status: 'active', grace_until: null } satisfies StateChange;
      case 'invoice.payment_failed':
        if (!invoiceSubscription(object)) return null;
        // The grace period runs from the first failure; a retry that fails again does not extend it.
        return {
          status: 'past_due',
          grace_until: current?.grace_until ?? graceFrom(event),
        } satisfies StateChange;
      default:
        return null;
    }
  }

  const graceFrom = (event: Stripe.Event) => new Date(event.created * 1000 + GRACE_PERIOD_MS).toISOString();

  async function apply(trx: Queryable, event: Stripe.Event, orgId: string): Promise<EventOutcome> {
    const object = event.data.object as unknown as Obj;
    const current = await billing.findSubscriptionOfOrg(trx, orgId);
    if (current && event.created < Number(current.state_at)) return 'stale';
    const change = changeFor(event, object, current);
    if (change === null) return 'ignored';
    if (change === 'stale') return 'stale';
    const now = deps.clock.now().toISOString();
    const base: Omit<BillingSubscriptionRow, 'state_at' | 'updated_at'> = current ?? {
      org_id: orgId,
      stripe_customer_id: null,
      stripe_subscription_id: null,
      plan: 'free',
      status: 'none',
      current_period_end: null,
      cancel_at_period_end: 0,
      grace_until: null,
    };
    const next = { ...base, ...change, org_id: orgId, state_at: event.created, updated_at: now };
    await billing.upsertSubscription(trx, next);
    await setOrgPlan(trx, orgId, next);
    return 'applied';
  }

  /**
   * `orgs.plan` follows the subscription: its plan while paid for or in arrears (the grace
   * period is judged when limits are read), Free once it ends. Enterprise, set by the
   * platform owner, is not Stripe's to change.
   */
  async function setOrgPlan(trx: Queryable, orgId: string, sub: { plan: string; status: string }) {
    const plan: PlanId = isPlanId(sub.plan) ? sub.plan : 'free';
    // Far in the future: only the status decides here, not the grace period.
    const granted = planGranted(
      { plan, status: sub.status, grace_until: '9999-12-31T00:00:00Z' },
      new Date(0),
    );
    await billing.setOrgPlanUnlessEnterprise(trx, orgId, granted);
  }

  /**
   * Stripe resends an event for up to three days, so ids are kept well beyond that (and
   * for the platform owner's overview), then dropped.
   */
  async function prune(): Promise<void> {
    const before = new Date(deps.clock.now().getTime() - EVENT_RETENTION_MS).toISOString();
    await billing.deleteStripeEventsReceivedBefore(db, before);
  }

  return {
    /** Processes one verified event exactly once; answers what became of it. */
    async handle(event: Stripe.Event): Promise<EventOutcome> {
      const object = event.data.object as unknown as Obj;
      const { outcome, orgId } = await db.transaction().execute(async (trx) => {
        const orgId = await orgOf(trx, object);
        const firstTime = await billing.insertStripeEventOnce(trx, {
          id: event.id,
          type: event.type,
          created: event.created,
          org_id: orgId ?? null,
          outcome: 'ignored',
          received_at: deps.clock.now().toISOString(),
        });
        if (!firstTime) return { outcome: 'duplicate' as const, orgId };
        const outcome = orgId ? await apply(trx, event, orgId) : 'ignored';
        await billing.setStripeEventOutcome(trx, event.id, outcome);
        return { outcome, orgId };
      });
      if (orgId && outcome === 'applied') deps.onPlanChange(orgId);
      await prune();
      deps.logger.info({ stripe_event: event.id, type: event.type, org_id: orgId, outcome }, 'stripe event');
      return outcome;
    },
  };
}

export type StripeEvents = ReturnType<typeof createStripeEvents>;
