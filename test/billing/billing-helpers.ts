import type { DatabaseTarget } from '../helpers/databases.js';
import { signed, stripeEvent, type FakeStripe } from '../helpers/fake-stripe.js';
import { startServer, type StartOptions, type TestResponse, type TestServer } from '../helpers/server.js';
import type { TestUser } from '../helpers/users.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

/** A Cloud-edition Folio on `target`, talking to `fake` as its Stripe. */
export async function startCloud(
  target: DatabaseTarget,
  fake: FakeStripe,
  options: StartOptions = {},
): Promise<{ server: TestServer; cleanup(): Promise<void> }> {
  const db = await target.prepare();
  const server = await startServer({
    ...options,
    env: {
      ...db.env,
      EDITION: 'cloud',
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
      STRIPE_API_BASE: fake.url,
      ...options.env,
    },
    ...(db.pgSchema ? { pgSchema: db.pgSchema } : {}),
  });
  return {
    server,
    async cleanup() {
      await server.close();
      await db.cleanup();
    },
  };
}

/** The clock's now in Stripe's Unix seconds. */
export const unix = (server: TestServer) => Math.floor(server.folio.clock.now().getTime() / 1000);

/** Delivers `event` to the webhook, signed with the fake's secret at `timestamp` (default: now). */
export function deliver(
  server: TestServer,
  fake: FakeStripe,
  event: Record<string, unknown>,
  options: { timestamp?: number; secret?: string } = {},
): Promise<TestResponse> {
  const { body, headers } = signed(
    options.secret ?? fake.webhookSecret,
    event,
    options.timestamp ?? unix(server),
  );
  return server.request('POST', '/api/webhooks/stripe', { body, headers });
}

/**
 * Buys `plan` for `user`'s organization as a browser would: Folio's checkout, then the
 * `checkout.session.completed` Stripe sends once paid, built from what Folio sent Stripe.
 */
export async function buyPlan(
  server: TestServer,
  fake: FakeStripe,
  user: TestUser,
  plan: 'team' | 'business',
  created = unix(server),
): Promise<{ orgId: string; customer: string; subscription: string; event: Record<string, unknown> }> {
  const res = await server.request('POST', '/api/v1/billing/checkout', { token: user.token, body: { plan } });
  if (res.status !== 200) throw new Error(`checkout failed: ${res.status} ${res.text}`);
  const sent = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.form as any;
  const subscription = `sub_${Math.random().toString(36).slice(2)}`;
  const event = stripeEvent(
    'checkout.session.completed',
    {
      id: res.body.id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      payment_status: 'paid',
      customer: sent.customer,
      subscription,
      client_reference_id: sent.client_reference_id,
      metadata: sent.metadata,
    },
    { created },
  );
  const delivered = await deliver(server, fake, event);
  if (delivered.status !== 200) throw new Error(`webhook failed: ${delivered.status} ${delivered.text}`);
  return { orgId: sent.metadata.org_id, customer: sent.customer, subscription, event };
}

/** A subscription object as Stripe sends it in `customer.subscription.*` events (2025 API: period on items). */
export function subscriptionObject(fields: {
  id: string;
  customer: string;
  orgId: string;
  plan: string;
  status: string;
  periodEnd: number;
  cancelAtPeriodEnd?: boolean;
}): Record<string, unknown> {
  return {
    id: fields.id,
    object: 'subscription',
    customer: fields.customer,
    status: fields.status,
    cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
    metadata: { org_id: fields.orgId, plan: fields.plan },
    items: {
      object: 'list',
      data: [{ id: 'si_1', object: 'subscription_item', current_period_end: fields.periodEnd }],
    },
  };
}

/** An invoice of a subscription, in the 2025 API's shape (`parent.subscription_details`). */
export function invoiceObject(customer: string, subscription: string): Record<string, unknown> {
  return {
    id: `in_${Math.random().toString(36).slice(2)}`,
    object: 'invoice',
    customer,
    parent: { type: 'subscription_details', subscription_details: { subscription } },
  };
}
