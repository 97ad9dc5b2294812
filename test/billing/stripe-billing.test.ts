import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { startFakeStripe, stripeEvent, type FakeStripe } from '../helpers/fake-stripe.js';
import type { TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { buyPlan, deliver, invoiceObject, startCloud, subscriptionObject, unix } from './billing-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

const DAY = 24 * 3600 * 1000;

describeEachDatabase('Cloud billing through Stripe ($name)', (target) => {
  let fake: FakeStripe;
  let server: TestServer;
  let cleanup: () => Promise<void>;
  let owner: TestUser;
  let buyer: TestUser;
  const clock = manualClock(new Date());

  beforeAll(async () => {
    fake = await startFakeStripe();
    ({ server, cleanup } = await startCloud(target, fake, { clock }));
    owner = await registerUser(server); // the platform owner
    buyer = await registerUser(server);
  });
  afterAll(async () => {
    await cleanup();
    await fake.close();
  });
  // Each test's events come after the last one's, as Stripe's would.
  beforeEach(() => clock.advance(60_000));

  /** Moves the clock on, then signs the users in again (their access tokens last 15 minutes). */
  async function travel(ms: number) {
    clock.advance(ms);
    for (const user of [owner, buyer]) {
      const res = await server.request('POST', '/api/auth/login', {
        body: { email: user.email, password: user.password },
      });
      user.token = res.body.access_token;
    }
  }

  const subscription = async (user = buyer) =>
    (await server.request('GET', '/api/v1/billing/subscription', { token: user.token })).body;
  const overview = async () =>
    (await server.request('GET', '/api/v1/admin/billing?events=500', { token: owner.token })).body;

  it('starts on Free and publishes the plans', async () => {
    expect(await subscription()).toMatchObject({ plan: 'free', status: 'none', cancel_at_period_end: false });
    const plans = await server.request('GET', '/api/v1/billing/plans');
    expect(plans.status).toBe(200);
    const free = plans.body.data.find((p: any) => p.id === 'free');
    expect(free.limits).toEqual({ workspaces: 1, editors: 3, pages: 50 });
    expect(free.features.analytics).toBe(false);
    expect(plans.body.data.map((p: any) => p.id)).toEqual(['free', 'team', 'business', 'enterprise']);
  });

  it('opens a Checkout Session for the plan’s price and answers its URL', async () => {
    const res = await server.request('POST', '/api/v1/billing/checkout', {
      token: buyer.token,
      body: { plan: 'team' },
    });
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(new RegExp(`^${fake.url}/checkout/cs_test_`));
    const sent = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.form as any;
    expect(sent.mode).toBe('subscription');
    expect(sent.line_items['0'].price_data).toMatchObject({
      currency: 'usd',
      unit_amount: '4900',
      recurring: { interval: 'month' },
    });
    expect(sent.metadata.plan).toBe('team');
    expect(sent.subscription_data.metadata.org_id).toBe(sent.metadata.org_id);
    // One Stripe customer per organization, reused by the next checkout.
    await server.request('POST', '/api/v1/billing/checkout', {
      token: buyer.token,
      body: { plan: 'business' },
    });
    expect(fake.requests.filter((r) => r.path === '/v1/customers')).toHaveLength(1);
    expect(
      (
        await server.request('POST', '/api/v1/billing/checkout', {
          token: buyer.token,
          body: { plan: 'gold' },
        })
      ).body.error,
    ).toBe('VALIDATION_ERROR');
  });

  it('raises the plan when the checkout completes; a resent event changes nothing twice', async () => {
    const bought = await buyPlan(server, fake, buyer, 'team');
    expect(await subscription()).toMatchObject({ plan: 'team', status: 'active' });
    const again = await deliver(server, fake, bought.event);
    expect(again.status).toBe(200);
    expect(again.body.outcome).toBe('duplicate');
    const logged = (await overview()).events.filter((e: any) => e.id === bought.event.id);
    expect(logged).toHaveLength(1);
    expect(logged[0].outcome).toBe('applied');
  });

  it('applies subscription events by Stripe’s time, not by arrival', async () => {
    const { orgId, customer, subscription: sub } = await buyPlan(server, fake, buyer, 'team');
    const now = unix(server);
    const periodEnd = now + 30 * 86400;
    const newer = stripeEvent(
      'customer.subscription.updated',
      subscriptionObject({ id: sub, customer, orgId, plan: 'business', status: 'active', periodEnd }),
      { created: now + 20 },
    );
    const older = stripeEvent(
      'customer.subscription.updated',
      subscriptionObject({ id: sub, customer, orgId, plan: 'team', status: 'active', periodEnd: now }),
      { created: now + 10 },
    );
    expect((await deliver(server, fake, newer)).body.outcome).toBe('applied');
    expect((await deliver(server, fake, older)).body.outcome).toBe('stale');
    expect(await subscription()).toMatchObject({
      plan: 'business',
      status: 'active',
      current_period_end: new Date(periodEnd * 1000).toISOString(),
    });
  });

  it('refuses a bad signature and a stale timestamp with 400, changing nothing', async () => {
    const before = await subscription();
    const { orgId, customer } = await anyCustomer();
    const cancel = stripeEvent(
      'customer.subscription.deleted',
      subscriptionObject({
        id: 'sub_forged',
        customer,
        orgId,
        plan: 'team',
        status: 'canceled',
        periodEnd: 0,
      }),
      { created: unix(server) + 100 },
    );
    const forged = await deliver(server, fake, cancel, { secret: 'whsec_not_the_secret' });
    expect(forged.status).toBe(400);
    expect(forged.body.error).toBe('VALIDATION_ERROR');
    const stale = await deliver(server, fake, cancel, { timestamp: unix(server) - 301 });
    expect(stale.status).toBe(400);
    const unsigned = await server.request('POST', '/api/webhooks/stripe', { body: cancel });
    expect(unsigned.status).toBe(400);
    expect(await subscription()).toEqual(before);
    expect((await overview()).events.some((e: any) => e.id === cancel.id)).toBe(false);
  });

  it('keeps the plan for 7 days after a failed payment, then falls back to Free; paying restores it', async () => {
    const { customer, subscription: sub } = await buyPlan(server, fake, buyer, 'team');
    const ws = await firstWorkspace(server, buyer);
    const failed = stripeEvent('invoice.payment_failed', invoiceObject(customer, sub), {
      created: unix(server) + 1,
    });
    expect((await deliver(server, fake, failed)).body.outcome).toBe('applied');
    const grace = await subscription();
    expect(grace).toMatchObject({ plan: 'team', status: 'past_due' });
    expect(Date.parse(grace.grace_until)).toBe((unix(server) + 1) * 1000 + 7 * DAY);

    await travel(6 * DAY);
    expect((await subscription()).plan).toBe('team');
    // A retry that fails again does not extend the grace period.
    const retry = stripeEvent('invoice.payment_failed', invoiceObject(customer, sub), {
      created: unix(server),
    });
    await deliver(server, fake, retry);
    expect((await subscription()).grace_until).toBe(grace.grace_until);

    await travel(2 * DAY);
    expect(await subscription()).toMatchObject({ plan: 'free', status: 'past_due' });
    const limits = await server.request('GET', '/api/v1/billing/limits', { token: buyer.token });
    expect(limits.body.plan).toBe('free');
    const analytics = await server.request('GET', `/api/v1/workspaces/${ws.id}/analytics/overview`, {
      token: buyer.token,
    });
    expect(analytics.body.error).toBe('PLAN_LIMIT');
    // Nothing was deleted: the content is all there.
    const tree = await server.request('GET', `/api/v1/content/${ws.slug}/tree`, { token: buyer.token });
    expect(tree.status).toBe(200);
    expect(tree.body.tree.length).toBeGreaterThan(0);

    const paid = stripeEvent('invoice.paid', invoiceObject(customer, sub), { created: unix(server) });
    expect((await deliver(server, fake, paid)).body.outcome).toBe('applied');
    expect(await subscription()).toMatchObject({ plan: 'team', status: 'active', grace_until: null });
  });

  it('falls back to Free when the subscription is deleted, and a late update cannot revive it', async () => {
    const { orgId, customer, subscription: sub } = await buyPlan(server, fake, buyer, 'business');
    const at = unix(server) + 5;
    const object = { id: sub, customer, orgId, plan: 'business', periodEnd: at };
    const deleted = stripeEvent(
      'customer.subscription.deleted',
      subscriptionObject({ ...object, status: 'canceled' }),
      { created: at },
    );
    expect((await deliver(server, fake, deleted)).body.outcome).toBe('applied');
    expect(await subscription()).toMatchObject({ plan: 'free', status: 'canceled' });
    const late = stripeEvent(
      'customer.subscription.updated',
      subscriptionObject({ ...object, status: 'active' }),
      {
        created: at,
      },
    );
    expect((await deliver(server, fake, late)).body.outcome).toBe('stale');
    expect((await subscription()).plan).toBe('free');
  });

  it('opens the Customer Portal for a customer; 409 before any checkout', async () => {
    const res = await server.request('POST', '/api/v1/billing/portal', { token: buyer.token });
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(new RegExp(`^${fake.url}/portal/bps_`));
    const sent = fake.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!.form;
    expect(sent.return_url).toBe(`${server.folio.config.publicUrl}/settings/billing`);
    const fresh = await registerUser(server);
    const none = await server.request('POST', '/api/v1/billing/portal', { token: fresh.token, body: {} });
    expect(none.status).toBe(409);
  });

  it('answers 503 with Stripe’s reason when Stripe refuses', async () => {
    fake.failNext(402, { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' });
    const res = await server.request('POST', '/api/v1/billing/checkout', {
      token: buyer.token,
      body: { plan: 'team' },
    });
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
    expect(res.body.message).toContain('Your card was declined.');
    expect(res.text).not.toContain(fake.secretKey);
  });

  it('shows the platform owner every subscription and recent event', async () => {
    const body = await overview();
    const mine = body.subscriptions.find((s: any) => s.handle === buyer.handle);
    expect(mine).toMatchObject({ status: 'canceled', plan: 'free' });
    expect(body.events.length).toBeGreaterThan(5);
    expect(Object.keys(body.events[0])).toEqual(
      expect.arrayContaining(['id', 'type', 'created', 'org_id', 'outcome', 'received_at']),
    );
  });

  /** The buyer's organization and customer, for events that must not apply. */
  async function anyCustomer() {
    const row = await server.folio.store.db
      .selectFrom('billing_subscriptions')
      .select(['org_id', 'stripe_customer_id'])
      .executeTakeFirstOrThrow();
    return { orgId: row.org_id, customer: row.stripe_customer_id ?? '' };
  }
});
