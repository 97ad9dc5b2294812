/**
 * The Cloud edition's billing routes, called by every kind of caller: the platform owner,
 * an organization's Super Admin, a member of that organization's workspace, someone from
 * another organization, and nobody. The Community edition must not have these routes at
 * all: each answers 404 there. (The Community matrix in matrix.test.ts never sees them.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_BUCKETS } from '../../src/ratelimit/buckets.js';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser } from '../helpers/users.js';
import { joinWithLink } from '../collab/collab-helpers.js';

type Caller = 'owner' | 'superadmin' | 'member' | 'other' | 'anonymous';
const CALLERS: Caller[] = ['owner', 'superadmin', 'member', 'other', 'anonymous'];

interface Expectation {
  body?: (org: string) => unknown;
  query?: (org: string) => string;
  /** The status each caller gets; 'ok' is any 2xx. */
  outcomes: Record<Caller, 'ok' | number>;
}

/** Super Admin only, of the organization named: a member is refused, anyone else cannot see it. */
const superAdminOnly: Expectation['outcomes'] = {
  owner: 404,
  superadmin: 'ok',
  member: 403,
  other: 404,
  anonymous: 401,
};

/** Walked in order: the checkout creates the customer the portal then needs. */
const BILLING_ROUTES: Record<string, Expectation> = {
  'GET /api/v1/billing/plans': {
    outcomes: { owner: 'ok', superadmin: 'ok', member: 'ok', other: 'ok', anonymous: 'ok' },
  },
  'GET /api/v1/billing/limits': { query: (org) => `?org=${org}`, outcomes: superAdminOnly },
  'GET /api/v1/billing/subscription': { query: (org) => `?org=${org}`, outcomes: superAdminOnly },
  'POST /api/v1/billing/checkout': { body: (org) => ({ plan: 'team', org }), outcomes: superAdminOnly },
  'POST /api/v1/billing/portal': { body: (org) => ({ org }), outcomes: superAdminOnly },
  'GET /api/v1/admin/billing': {
    outcomes: { owner: 'ok', superadmin: 404, member: 404, other: 404, anonymous: 404 },
  },
  // Credentials mean nothing here; only Stripe's signature does (none sent: 400).
  'POST /api/webhooks/stripe': {
    body: () => ({ id: 'evt_unsigned', type: 'invoice.paid' }),
    outcomes: { owner: 400, superadmin: 400, member: 400, other: 400, anonymous: 400 },
  },
};

const isBillingRoute = (key: string) =>
  /^\w+ \/api\/(v1\/billing\/|webhooks\/stripe|v1\/admin\/billing)/.test(key);
const routeKeys = (server: TestServer) =>
  new Set(server.folio.app.routeTable.filter((r) => r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`));
const CODES: Record<number, string> = { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

describe('billing authorisation (Cloud) and absence (Community)', () => {
  let fake: FakeStripe;
  let cloud: TestServer;
  let community: TestServer;
  const tokens: Partial<Record<Caller, string>> = {};
  let orgHandle = '';

  beforeAll(async () => {
    fake = await startFakeStripe();
    const lifted = Object.fromEntries(Object.keys(RATE_BUCKETS).map((b) => [b, { limit: 1_000_000 }]));
    cloud = await startServer({
      env: {
        EDITION: 'cloud',
        STRIPE_SECRET_KEY: fake.secretKey,
        STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
        STRIPE_API_BASE: fake.url,
      },
      rateLimits: lifted,
    });
    community = await startServer({ rateLimits: lifted });
    tokens.owner = (await registerUser(cloud)).token;
    const superadmin = await registerUser(cloud);
    tokens.superadmin = superadmin.token;
    orgHandle = (await cloud.request('GET', '/api/v1/workspaces', { token: superadmin.token })).body.data[0]
      .org_handle;
    const member = await registerUser(cloud);
    await joinWithLink(cloud, superadmin, (await firstWorkspace(cloud, superadmin)).id, member, 'editor');
    tokens.member = member.token;
    tokens.other = (await registerUser(cloud)).token;
  });
  afterAll(async () => {
    await cloud.close();
    await community.close();
    await fake.close();
  });

  it('lists every billing route the Cloud edition registers, and the Community edition registers none', () => {
    const cloudRoutes = [...routeKeys(cloud)].filter(isBillingRoute).sort();
    expect(cloudRoutes).toEqual(Object.keys(BILLING_ROUTES).sort());
    expect([...routeKeys(community)].filter(isBillingRoute)).toEqual([]);
  });

  it('describes the billing routes in the Cloud edition’s OpenAPI document', async () => {
    const res = await fetch(`${cloud.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
    for (const key of Object.keys(BILLING_ROUTES)) {
      const [method, path] = key.split(' ') as [string, string];
      expect(doc.paths[path]?.[method.toLowerCase()], key).toBeDefined();
    }
    expect(doc.paths['/api/v1/billing/checkout']?.post?.requestBody).toBeDefined();
  });

  it('answers 404 on every Cloud-only route in the Community edition', async () => {
    const signedIn = await registerUser(community);
    const cloudOnly = [...routeKeys(cloud)].filter((key) => !routeKeys(community).has(key));
    expect(cloudOnly.length).toBeGreaterThanOrEqual(Object.keys(BILLING_ROUTES).length);
    for (const key of cloudOnly) {
      const [method, pattern] = key.split(' ') as [string, string];
      const url = pattern.replace(/:\w+/g, 'x');
      for (const token of [undefined, signedIn.token]) {
        const res = await community.request(method, url, {
          ...(token ? { token } : {}),
          ...(method === 'GET' ? {} : { body: {} }),
        });
        expect(`${key} ${res.status}`).toBe(`${key} 404`);
        expect(res.body.error).toBe('NOT_FOUND');
      }
    }
  });

  it.each(Object.keys(BILLING_ROUTES))('%s', async (key) => {
    const spec = BILLING_ROUTES[key]!;
    const [method, path] = key.split(' ') as [string, string];
    const failures: string[] = [];
    for (const caller of CALLERS) {
      const token = tokens[caller];
      const res = await cloud.request(method, path + (spec.query?.(orgHandle) ?? ''), {
        ...(token ? { token } : {}),
        ...(spec.body ? { body: spec.body(orgHandle) } : {}),
      });
      const want = spec.outcomes[caller];
      const ok = want === 'ok' ? res.status >= 200 && res.status < 300 : res.status === want;
      const code = typeof want === 'number' ? CODES[want] : undefined;
      if (!ok || (code && res.body?.error !== code)) {
        failures.push(`${caller}: expected ${want}, got ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
