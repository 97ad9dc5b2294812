import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe.js';
import type { TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser } from '../helpers/users.js';
import { joinWithLink } from '../collab/collab-helpers.js';
import { buyPlan, startCloud } from './billing-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

/**
 * Every limit of the Free plan, refused at its boundary with its code and
 * allowed once the organization has bought Team.
 */
describeEachDatabase('Cloud plan limits ($name)', (target) => {
  let fake: FakeStripe;
  let server: TestServer;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    fake = await startFakeStripe();
    ({ server, cleanup } = await startCloud(target, fake, {
      // Writes and sign-ins lifted so fifty pages fit in a test; reads keep the plan's tier.
      rateLimits: { contentWrite: { limit: 100_000 }, auth: { limit: 100_000 } },
    }));
    await registerUser(server); // the platform owner
  });
  afterAll(async () => {
    await cleanup();
    await fake.close();
  });

  const refusal = (res: { status: number; body: any }, limit: number, current: number) => {
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('PLAN_LIMIT_REACHED');
    expect(res.body.details).toMatchObject({ limit, current, plan: 'free' });
  };

  it('one workspace on Free; more on Team', async () => {
    const user = await registerUser(server);
    const create = () =>
      server.request('POST', '/api/v1/workspaces', {
        token: user.token,
        body: { name: 'Second', slug: `second-${user.handle}` },
      });
    refusal(await create(), 1, 1);
    await buyPlan(server, fake, user, 'team');
    expect((await create()).status).toBe(201);
  });

  it('three editor seats on Free, counting invitations, share links and promotions; more on Team', async () => {
    const admin = await registerUser(server);
    const ws = await firstWorkspace(server, admin);
    const invite = (email: string, role: string) =>
      server.request('POST', `/api/v1/workspaces/${ws.id}/invitations`, {
        token: admin.token,
        body: { email, role },
      });
    const stamp = Date.now();
    // The Super Admin holds the first seat; two invitations reserve the others.
    expect((await invite(`e1-${stamp}@example.com`, 'editor')).status).toBe(201);
    expect((await invite(`e2-${stamp}@example.com`, 'admin')).status).toBe(201);
    refusal(await invite(`e3-${stamp}@example.com`, 'editor'), 3, 3);
    // Seats are for editors and above; a renewed invitation takes no second seat.
    expect((await invite(`reader-${stamp}@example.com`, 'viewer')).status).toBe(201);
    expect((await invite(`e1-${stamp}@example.com`, 'admin')).status).toBe(201);

    const link = await server.request('POST', `/api/v1/workspaces/${ws.id}/share-links`, {
      token: admin.token,
      body: { role: 'editor' },
    });
    const joiner = await registerUser(server);
    refusal(
      await server.request('POST', `/api/v1/share-links/${link.body.token}/use`, { token: joiner.token }),
      3,
      3,
    );

    const viewer = await registerUser(server);
    await joinWithLink(server, admin, ws.id, viewer, 'viewer');
    const promote = () =>
      server.request('PUT', `/api/v1/workspaces/${ws.id}/admin/members/${viewer.id}/role`, {
        token: admin.token,
        body: { role: 'editor' },
      });
    refusal(await promote(), 3, 3);

    await buyPlan(server, fake, admin, 'team');
    expect((await invite(`e3-${stamp}@example.com`, 'editor')).status).toBe(201);
    expect((await promote()).status).toBe(200);
    expect(
      (await server.request('POST', `/api/v1/share-links/${link.body.token}/use`, { token: joiner.token }))
        .status,
    ).toBe(200);
    const limits = await server.request('GET', '/api/v1/billing/limits', { token: admin.token });
    expect(limits.body.limits.find((l: any) => l.name === 'editors')).toEqual({
      name: 'editors',
      limit: 25,
      current: 6,
    });
  });

  it('fifty pages on Free, through POST and PUT; more on Team', async () => {
    const user = await registerUser(server);
    const ws = await firstWorkspace(server, user);
    const page = (n: number) => `/api/v1/content/${ws.slug}/bulk/page-${n}.md`;
    // The starter workspace's welcome page is the first.
    for (let n = 2; n <= 50; n += 1) {
      const res = await server.request('POST', page(n), { token: user.token, body: { title: `Page ${n}` } });
      expect(res.status, res.text).toBe(201);
    }
    const limits = await server.request('GET', '/api/v1/billing/limits', { token: user.token });
    expect(limits.body).toMatchObject({ plan: 'free', features: { analytics: false } });
    expect(limits.body.limits).toEqual([
      { name: 'workspaces', limit: 1, current: 1 },
      { name: 'editors', limit: 3, current: 1 },
      { name: 'pages', limit: 50, current: 50 },
    ]);
    refusal(
      await server.request('POST', page(51), { token: user.token, body: { title: 'One too many' } }),
      50,
      50,
    );
    refusal(
      await server.request('PUT', page(51), { token: user.token, body: { body: 'Also too many' } }),
      50,
      50,
    );
    // Existing pages stay editable at the limit.
    const read = await server.request('GET', page(50), { token: user.token });
    const update = await server.request('PUT', page(50), {
      token: user.token,
      body: { body: 'Still editable', lastKnownHash: read.body.content_hash },
    });
    expect(update.status).toBe(200);

    await buyPlan(server, fake, user, 'team');
    expect(
      (await server.request('POST', page(51), { token: user.token, body: { title: 'Room' } })).status,
    ).toBe(201);
    // Fifty real page writes: a busy machine needs longer than the default budget.
  }, 180_000);

  it('no analytics on Free (403 PLAN_LIMIT); reports on Team', async () => {
    const user = await registerUser(server);
    const ws = await firstWorkspace(server, user);
    const overview = () =>
      server.request('GET', `/api/v1/workspaces/${ws.id}/analytics/overview`, { token: user.token });
    const refused = await overview();
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('PLAN_LIMIT');
    await buyPlan(server, fake, user, 'team');
    expect((await overview()).status).toBe(200);
  });

  it('counts content reads by the plan’s tier: 100 a minute on Free, 300 on Team', async () => {
    const user = await registerUser(server);
    const ws = await firstWorkspace(server, user);
    const limit = async () =>
      (await server.request('GET', `/api/v1/content/${ws.slug}/tree`, { token: user.token })).headers.get(
        'x-ratelimit-limit',
      );
    expect(await limit()).toBe('100');
    await buyPlan(server, fake, user, 'team');
    expect(await limit()).toBe('300');
  });
});
