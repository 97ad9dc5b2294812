/**
 * The authorisation matrix of the Cloud edition's GDPR and platform-administration routes:
 * every route a Cloud server adds (billing's aside, which has its own suite), called by the
 * platform owner, an organization's Super Admin, a member of that organization, someone of
 * another organization and an anonymous caller, against an explicit expectation. A Cloud
 * route missing from the table fails the suite, so none can be added unchecked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_BUCKETS } from '../../src/ratelimit/buckets.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { firstWorkspace, joinWithLink } from '../collab/collab-helpers.js';
import { cloudOnlyRoutes, isBillingRoute } from '../cloud/cloud-helpers.js';

type Actor = 'owner' | 'superadmin' | 'member' | 'otherOrg' | 'anonymous';
/** `allow` is any 2xx; a number is the exact status (401, 403, 404 with their error codes, 400 for a body refused). */
type Outcome = 'allow' | number;

interface Fixture {
  orgHandle: string;
  aliceId: string;
  throwawayId: string;
  domain: string;
}

interface Spec {
  path: (f: Fixture) => string;
  body?: unknown;
  /** Outcome per actor; anonymous is 401 unless it says otherwise. */
  expect: Partial<Record<Actor, Outcome>>;
}

const ownerOnly = (owner: Outcome = 'allow'): Spec['expect'] => ({
  owner,
  superadmin: 404,
  member: 404,
  otherOrg: 404,
});
const everyone = (outcome: Outcome): Spec['expect'] => ({
  owner: outcome,
  superadmin: outcome,
  member: outcome,
  otherOrg: outcome,
});
const ORG = (f: Fixture, rest = '') => `/api/v1/admin/orgs/${f.orgHandle}${rest}`;
const USER = (f: Fixture, rest = '') => `/api/v1/admin/users/${f.aliceId}${rest}`;

/** Every Cloud route of GDPR and administration; destructive ones last, pointed at throwaway targets. */
const ROUTES: Record<string, Spec> = {
  'GET /api/v1/users/me/export': { path: () => '/api/v1/users/me/export', expect: everyone('allow') },
  'GET /api/v1/users/me/impersonation': {
    path: () => '/api/v1/users/me/impersonation',
    expect: everyone('allow'),
  },
  // Nobody in the fixture is being impersonated.
  'DELETE /api/v1/users/me/impersonation': {
    path: () => '/api/v1/users/me/impersonation',
    expect: everyone(404),
  },
  'GET /api/v1/orgs/:handle/export': {
    path: (f) => `/api/v1/orgs/${f.orgHandle}/export`,
    expect: { owner: 404, superadmin: 'allow', member: 403, otherOrg: 404 },
  },
  'GET /api/v1/admin/orgs': { path: () => '/api/v1/admin/orgs', expect: ownerOnly() },
  'GET /api/v1/admin/orgs/:id': { path: (f) => ORG(f), expect: ownerOnly() },
  'PUT /api/v1/admin/orgs/:id/plan': {
    path: (f) => ORG(f, '/plan'),
    body: { plan: 'team' },
    expect: ownerOnly(),
  },
  'PUT /api/v1/admin/orgs/:id/subscription': {
    path: (f) => ORG(f, '/subscription'),
    body: { plan: 'business' },
    expect: ownerOnly(),
  },
  'DELETE /api/v1/admin/orgs/:id/subscription': { path: (f) => ORG(f, '/subscription'), expect: ownerOnly() },
  'PUT /api/v1/admin/orgs/:id/rate-limits': {
    path: (f) => ORG(f, '/rate-limits'),
    body: { limits: { search: 100 } },
    expect: ownerOnly(),
  },
  'GET /api/v1/admin/orgs/:id/export': { path: (f) => ORG(f, '/export'), expect: ownerOnly() },
  'GET /api/v1/admin/users': { path: () => '/api/v1/admin/users', expect: ownerOnly() },
  'GET /api/v1/admin/users/:id': { path: (f) => USER(f), expect: ownerOnly() },
  'GET /api/v1/admin/users/:id/export': { path: (f) => USER(f, '/export'), expect: ownerOnly() },
  'POST /api/v1/admin/users/:id/impersonate': {
    path: (f) => USER(f, '/impersonate'),
    body: { reason: 'matrix' },
    expect: ownerOnly(),
  },
  'GET /api/v1/admin/audit-log': { path: () => '/api/v1/admin/audit-log', expect: ownerOnly() },
  'GET /api/v1/admin/domains': { path: () => '/api/v1/admin/domains', expect: ownerOnly() },
  'POST /api/v1/admin/domains/:domain/verify': {
    path: (f) => `/api/v1/admin/domains/${f.domain}/verify`,
    expect: ownerOnly(),
  },
  'GET /api/v1/admin/health': { path: () => '/api/v1/admin/health', expect: ownerOnly() },
  'GET /api/v1/admin/analytics/overview': {
    path: () => '/api/v1/admin/analytics/overview',
    expect: ownerOnly(),
  },
  'GET /api/v1/admin/analytics/growth': { path: () => '/api/v1/admin/analytics/growth', expect: ownerOnly() },
  // Password missing: a 400 for every signed-in caller proves the route got past authorisation.
  'DELETE /api/v1/users/me': { path: () => '/api/v1/users/me', body: {}, expect: everyone(400) },
  'DELETE /api/v1/admin/users/:id': {
    path: (f) => `/api/v1/admin/users/${f.throwawayId}`,
    expect: ownerOnly(),
  },
  'DELETE /api/v1/admin/domains/:domain': {
    path: (f) => `/api/v1/admin/domains/${f.domain}`,
    expect: ownerOnly(),
  },
};

const CODES: Record<number, string> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
};

describe('authorisation matrix of the Cloud GDPR and administration routes', () => {
  let server: TestServer;
  let community: TestServer;
  let tokens: Record<Exclude<Actor, 'anonymous'>, string>;
  let f: Fixture;

  beforeAll(async () => {
    const lifted = Object.fromEntries(Object.keys(RATE_BUCKETS).map((b) => [b, { limit: 1_000_000 }]));
    server = await startServer({ env: { EDITION: 'cloud' }, rateLimits: lifted });
    community = await startServer();
    const owner = await registerUser(server);
    const alice: TestUser = await registerUser(server);
    const bob = await registerUser(server);
    const carol = await registerUser(server);
    const throwaway = await registerUser(server);
    const ws = await firstWorkspace(server, alice);
    await joinWithLink(server, alice, ws.id, bob, 'editor');
    const domain = await server.request('PUT', `/api/v1/workspaces/${ws.id}/custom-domain`, {
      token: alice.token,
      body: { domain: 'docs.matrix.example' },
    });
    expect(domain.status).toBe(200);
    tokens = { owner: owner.token, superadmin: alice.token, member: bob.token, otherOrg: carol.token };
    f = {
      orgHandle: (await server.request('GET', '/api/auth/me', { token: alice.token })).body.org.handle,
      aliceId: alice.id,
      throwawayId: throwaway.id,
      domain: 'docs.matrix.example',
    };
  });
  afterAll(async () => {
    await server.close();
    await community.close();
  });

  it('has an expectation for every Cloud route of GDPR and administration, and no stale ones', () => {
    const mine = cloudOnlyRoutes(server.folio.app.routeTable, community.folio.app.routeTable).filter(
      (r) => !isBillingRoute(r.split(' ')[1]!),
    );
    expect(mine.filter((r) => !(r in ROUTES))).toEqual([]);
    expect(Object.keys(ROUTES).filter((r) => !mine.includes(r))).toEqual([]);
  });

  it.each(Object.keys(ROUTES))('%s', async (key) => {
    const spec = ROUTES[key]!;
    const method = key.split(' ')[0]!;
    const failures: string[] = [];
    // The owner last: a destructive call that is allowed runs after every refusal was checked.
    for (const actor of ['anonymous', 'otherOrg', 'member', 'superadmin', 'owner'] as const) {
      const want: Outcome = actor === 'anonymous' ? (spec.expect.anonymous ?? 401) : spec.expect[actor]!;
      const headers: Record<string, string> = { accept: 'application/json' };
      if (actor !== 'anonymous') headers.authorization = `Bearer ${tokens[actor]}`;
      if (spec.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(server.url + spec.path(f), {
        method,
        headers,
        ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
      });
      const text = await res.text();
      let error: unknown;
      try {
        error = (JSON.parse(text) as { error?: unknown }).error;
      } catch {
        error = undefined;
      }
      const line = `${actor}: expected ${want}, got ${res.status} ${text.slice(0, 160)}`;
      if (want === 'allow') {
        if (res.status < 200 || res.status > 299) failures.push(line);
      } else if (res.status !== want || error !== CODES[want]) failures.push(line);
    }
    expect(failures).toEqual([]);
  });
});
