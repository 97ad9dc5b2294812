/**
 * The platform owner's administration (`/api/v1/admin/*`, Cloud) through HTTP on both
 * databases: organizations (list with cursors, details, plan, subscription override, rate
 * limits, export), users (list, details, export, deletion, impersonation with its audit
 * entry and banner status), custom domains, health and growth, and the audit log. Anyone
 * but the owner gets 404, even with a malformed body.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { callTool, mcpOverHttp } from '../helpers/mcp.js';
import { createPage, type TestWorkspace } from '../helpers/workspace-access.js';
import { firstWorkspace } from '../collab/collab-helpers.js';
import { downloadZip, jsonOf, startCloud, unzip } from './cloud-helpers.js';

describeEachDatabase('platform administration ($name)', (target) => {
  let ctx: Awaited<ReturnType<typeof startCloud>>;
  let server: TestServer;
  let owner: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let aliceWs: TestWorkspace;
  let aliceOrg: string;
  /** TXT answers the custom-domain check sees. */
  const txt = new Map<string, string[][]>();

  const admin = (method: string, path: string, body?: unknown, token = owner.token) =>
    server.request(method, `/api/v1/admin${path}`, { token, ...(body === undefined ? {} : { body }) });
  const audit = async () => (await admin('GET', '/audit-log')).body.data;

  beforeAll(async () => {
    ctx = await startCloud(target, {
      txtResolver: {
        resolveTxt: async (name) => {
          const records = txt.get(name);
          if (!records) throw Object.assign(new Error('no TXT'), { code: 'ENODATA' });
          return records;
        },
      },
    });
    server = ctx.server;
    owner = await registerUser(server, { name: 'Owner' });
    alice = await registerUser(server, { name: 'Alice Admin' });
    bob = await registerUser(server, { name: 'Bob' });
    aliceWs = await firstWorkspace(server, alice);
    aliceOrg = (await server.request('GET', '/api/auth/me', { token: alice.token })).body.org.handle;
    await createPage(server, alice, aliceWs, 'guides/intro.md', { title: 'Intro', body: 'Hello.' });
  });
  afterAll(() => ctx.cleanup());

  it('answers 404 to everyone but the platform owner, before looking at the input', async () => {
    for (const [method, path, body] of [
      ['GET', '/orgs', undefined],
      ['GET', `/orgs/${aliceOrg}`, undefined],
      ['PUT', `/orgs/${aliceOrg}/plan`, { plan: 'nonsense' }],
      ['GET', '/users', undefined],
      ['GET', '/audit-log', undefined],
      ['GET', '/health', undefined],
    ] as const) {
      const res = await admin(method, path, body, alice.token);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('NOT_FOUND');
    }
    expect((await server.request('GET', '/api/v1/admin/orgs')).status).toBe(401);
  });

  it('applies a granted subscription to the limits until it expires, then what billing says', async () => {
    const plan = async () =>
      (await server.request('GET', `/api/v1/billing/limits?org=${aliceOrg}`, { token: alice.token })).body
        .plan;
    expect(await plan()).toBe('free');
    await admin('PUT', `/orgs/${aliceOrg}/subscription`, {
      plan: 'business',
      expires_at: '2099-01-01T00:00:00Z',
    });
    expect(await plan()).toBe('business');
    // An expired grant no longer counts, although it was written to the stored plan: no
    // subscription was ever paid for, so the organization is back on Free.
    await admin('PUT', `/orgs/${aliceOrg}/subscription`, {
      plan: 'business',
      expires_at: '2001-01-01T00:00:00Z',
    });
    expect(await plan()).toBe('free');
    await admin('DELETE', `/orgs/${aliceOrg}/subscription`);
    await admin('PUT', `/orgs/${aliceOrg}/plan`, { plan: 'free' });
    expect(await plan()).toBe('free');
  });

  it('lists organizations a page at a time and shows one by handle', async () => {
    const first = await admin('GET', '/orgs?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await admin('GET', `/orgs?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.data).toHaveLength(1);
    expect(second.body.next_cursor).toBeNull();
    const all = [...first.body.data, ...second.body.data].map((o: { handle: string }) => o.handle);
    expect(new Set(all).size).toBe(3);
    expect(all).toContain(aliceOrg);
    const search = await admin('GET', `/orgs?q=${aliceOrg}`);
    expect(search.body.data.map((o: { handle: string }) => o.handle)).toEqual([aliceOrg]);

    const one = await admin('GET', `/orgs/${aliceOrg}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ handle: aliceOrg, plan: 'free', members: 1, workspaces: 1 });
    expect(one.body.workspace_list).toEqual([expect.objectContaining({ slug: aliceWs.slug, page_count: 2 })]);
    expect(one.body.superadmins).toEqual([expect.objectContaining({ id: alice.id })]);
    expect((await admin('GET', '/orgs/no-such-org')).status).toBe(404);
    expect((await admin('GET', '/orgs?cursor=bogus')).status).toBe(400);
  });

  it('changes the plan, overrides the subscription and sets rate limits, each audited', async () => {
    const bad = await admin('PUT', `/orgs/${aliceOrg}/plan`, { plan: 'platinum' });
    expect(bad.status).toBe(400);
    expect(bad.body.details.field).toBe('plan');
    const plan = await admin('PUT', `/orgs/${aliceOrg}/plan`, { plan: 'team' });
    expect(plan.status).toBe(200);
    expect(plan.body.plan).toBe('team');
    expect((await admin('GET', `/orgs/${aliceOrg}`)).body.plan).toBe('team');

    const override = await admin('PUT', `/orgs/${aliceOrg}/subscription`, {
      plan: 'enterprise',
      expires_at: '2030-01-01T00:00:00Z',
      note: 'pilot',
    });
    expect(override.status).toBe(200);
    expect(override.body).toMatchObject({
      plan: 'enterprise',
      subscription_override: { plan: 'enterprise', expires_at: '2030-01-01T00:00:00Z', note: 'pilot' },
    });
    const cleared = await admin('DELETE', `/orgs/${aliceOrg}/subscription`);
    expect(cleared.body.subscription_override).toBeNull();

    const limits = await admin('PUT', `/orgs/${aliceOrg}/rate-limits`, {
      limits: { contentRead: 1200, search: 500 },
    });
    expect(limits.status).toBe(200);
    expect(limits.body.rate_limits).toEqual({ contentRead: 1200, search: 500 });
    const reset = await admin('PUT', `/orgs/${aliceOrg}/rate-limits`, { limits: { search: null } });
    expect(reset.body.rate_limits).toEqual({ contentRead: 1200 });
    expect((await admin('PUT', `/orgs/${aliceOrg}/rate-limits`, { limits: { nonsense: 5 } })).status).toBe(
      400,
    );

    // The organization's own limit applies at once: 1200 content reads a minute instead of the suite's 100 000.
    const read = await server.request('GET', `/api/v1/content/${aliceWs.slug}/guides/intro.md`, {
      token: alice.token,
    });
    expect(read.headers.get('x-ratelimit-limit')).toBe('1200');
    await admin('PUT', `/orgs/${aliceOrg}/rate-limits`, { limits: { contentRead: 1 } });
    const refused = await server.request('GET', `/api/v1/content/${aliceWs.slug}/guides/intro.md`, {
      token: alice.token,
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('1');
    // An MCP tool call counts against the same limit of the same organization.
    const key = await server.request('POST', '/api/v1/api-keys', {
      token: alice.token,
      body: { name: 'mcp' },
    });
    const mcp = await mcpOverHttp(`${server.url}/mcp`, key.body.key);
    const readOverMcp = () =>
      callTool(mcp, 'svc_read_page', { workspace: aliceWs.slug, path: 'guides/intro.md' });
    try {
      expect((await readOverMcp()).data.error).toBe('RATE_LIMITED');
      await admin('PUT', `/orgs/${aliceOrg}/rate-limits`, { limits: { contentRead: 1200 } });
      expect((await readOverMcp()).data.title).toBe('Intro');
    } finally {
      await mcp.close();
    }

    const actions = (await audit()).map((e: { action: string }) => e.action);
    expect(actions.slice(0, 7)).toEqual([
      'org_rate_limits_changed',
      'org_rate_limits_changed',
      'org_rate_limits_changed',
      'org_rate_limits_changed',
      'org_subscription_override_cleared',
      'org_subscription_overridden',
      'org_plan_changed',
    ]);
    const planEntry = (await audit()).find((e: { action: string }) => e.action === 'org_plan_changed');
    expect(planEntry).toMatchObject({
      actor: { id: owner.id, name: 'Owner' },
      target: { type: 'org' },
      details: { from: 'free', to: 'team' },
    });
  });

  it("exports an organization and a user's data", async () => {
    const org = await downloadZip(server.url, `/api/v1/admin/orgs/${aliceOrg}/export`, owner.token);
    expect(org.res.status).toBe(200);
    const orgFiles = await unzip(org.bytes);
    expect(orgFiles.get(`workspaces/${aliceWs.slug}/files/guides/intro.md`)?.toString()).toContain('Hello.');
    const user = await downloadZip(server.url, `/api/v1/admin/users/${alice.id}/export`, owner.token);
    expect(user.res.status).toBe(200);
    expect(jsonOf(await unzip(user.bytes), 'profile.json')).toMatchObject({
      id: alice.id,
      email: alice.email,
    });
    const actions = (await audit()).slice(0, 2).map((e: { action: string }) => e.action);
    expect(actions).toEqual(['user_exported', 'org_exported']);
  });

  it('lists and shows users', async () => {
    const list = await admin('GET', '/users?limit=100');
    expect(list.body.data.map((u: { id: string }) => u.id)).toEqual([bob.id, alice.id, owner.id]);
    const found = await admin('GET', `/users?q=${encodeURIComponent(alice.email)}`);
    expect(found.body.data).toEqual([expect.objectContaining({ id: alice.id, is_platform_owner: false })]);
    const one = await admin('GET', `/users/${alice.id}`);
    expect(one.body).toMatchObject({
      email: alice.email,
      organizations: [expect.objectContaining({ handle: aliceOrg, role: 'superadmin' })],
    });
    expect((await admin('GET', '/users/01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
  });

  it('impersonates a user only with a reason, records it, and the session knows it is impersonated', async () => {
    expect((await admin('POST', `/users/${alice.id}/impersonate`, {})).status).toBe(400);
    expect((await admin('POST', `/users/${owner.id}/impersonate`, { reason: 'me' })).status).toBe(400);
    const key = await server.request('POST', '/api/v1/api-keys', {
      token: owner.token,
      body: { name: 'admin', scopes: ['admin'] },
    });
    expect(
      (await admin('POST', `/users/${alice.id}/impersonate`, { reason: 'support' }, key.body.key)).status,
    ).toBe(403);

    const res = await admin('POST', `/users/${alice.id}/impersonate`, { reason: 'Ticket 42: page missing' });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/folio_access=/);
    const token = res.body.access_token as string;
    const me = await server.request('GET', '/api/auth/me', { token });
    expect(me.body.id).toBe(alice.id);
    const status = await server.request('GET', '/api/v1/users/me/impersonation', { token });
    expect(status.body).toMatchObject({
      impersonated_by: { id: owner.id, name: 'Owner' },
      user: { id: alice.id },
    });
    const own = await server.request('GET', '/api/v1/users/me/impersonation', { token: alice.token });
    expect(own.body.impersonated_by).toBeNull();

    const [entry] = await audit();
    expect(entry).toMatchObject({
      action: 'user_impersonated',
      actor: { id: owner.id },
      target: { type: 'user', id: alice.id },
      details: { reason: 'Ticket 42: page missing' },
    });

    expect(
      (await server.request('DELETE', '/api/v1/users/me/impersonation', { token: alice.token })).status,
    ).toBe(404);
    const end = await server.request('DELETE', '/api/v1/users/me/impersonation', { token });
    expect(end.status).toBe(204);
    const refreshed = await server.request('POST', '/api/auth/refresh', {
      body: { refresh_token: res.body.refresh_token },
    });
    expect(refreshed.status).toBe(401);
    expect((await audit())[0]).toMatchObject({
      action: 'impersonation_ended',
      actor: { id: owner.id },
      target: { id: alice.id },
    });
  });

  it('lists, re-verifies and deletes custom domains', async () => {
    const set = await server.request('PUT', `/api/v1/workspaces/${aliceWs.id}/custom-domain`, {
      token: alice.token,
      body: { domain: 'docs.alice.example' },
    });
    expect(set.body.status).toBe('pending');
    const list = await admin('GET', '/domains');
    expect(list.body.data).toEqual([
      expect.objectContaining({
        domain: 'docs.alice.example',
        status: 'pending',
        workspace: aliceWs.slug,
        org: aliceOrg,
      }),
    ]);
    txt.set(set.body.verification.name, [[set.body.verification.value]]);
    const verified = await admin('POST', '/domains/docs.alice.example/verify');
    expect(verified.body.status).toBe('verified');
    txt.clear();
    const lapsed = await admin('POST', '/domains/docs.alice.example/verify');
    expect(lapsed.body.status).toBe('pending');
    expect((await admin('DELETE', '/domains/docs.alice.example')).status).toBe(204);
    expect((await admin('GET', '/domains')).body.data).toEqual([]);
    const gone = await server.request('GET', `/api/v1/workspaces/${aliceWs.id}/custom-domain`, {
      token: alice.token,
    });
    expect(gone.status).toBe(404);
    expect((await audit()).slice(0, 3).map((e: { action: string }) => e.action)).toEqual([
      'domain_deleted',
      'domain_verified',
      'domain_verified',
    ]);
  });

  it('reports health and growth', async () => {
    const health = await admin('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.checks.database.status).toBe('ok');
    expect(health.body.totals).toMatchObject({ users: 3, organizations: 3, workspaces: 3 });
    const overview = await admin('GET', '/analytics/overview');
    expect(overview.body.organizations_by_plan).toMatchObject({ free: 2, enterprise: 1 });
    const growth = await admin('GET', '/analytics/growth?days=7');
    expect(growth.body.days).toHaveLength(7);
    const today = growth.body.days[6];
    expect(today).toEqual({ day: new Date().toISOString().slice(0, 10), signups: 3, active_orgs: 3 });
    expect(growth.body.days[0]).toMatchObject({ signups: 0, active_orgs: 0 });
  });

  it('deletes a user as they could themselves, and records it', async () => {
    const res = await admin('DELETE', `/users/${bob.id}`);
    expect(res.status).toBe(204);
    expect(
      (
        await server.request('POST', '/api/auth/login', {
          body: { email: bob.email, password: bob.password },
        })
      ).status,
    ).toBe(401);
    expect((await admin('GET', `/users/${bob.id}`)).body).toMatchObject({
      name: 'Deleted user',
      deleted_at: expect.any(String),
    });
    expect((await audit())[0]).toMatchObject({
      action: 'user_deleted',
      target: { id: bob.id },
    });
    // The log outlives the account and keeps none of its personal data.
    expect(JSON.stringify(await audit())).not.toContain(bob.email);
    const self = await admin('DELETE', `/users/${owner.id}`);
    expect(self.status).toBe(409);
  });
});
