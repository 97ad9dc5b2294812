/**
 * EDITION=community (the default) has none of the Cloud edition: every route a Cloud server
 * adds answers 404 NOT_FOUND there, signed in or not, and the routes both editions share
 * keep their Community behaviour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { cloudOnlyRoutes } from './cloud-helpers.js';

describe('Community edition', () => {
  let community: TestServer;
  let cloud: TestServer;
  let owner: TestUser;
  let routes: string[];

  beforeAll(async () => {
    community = await startServer();
    cloud = await startServer({ env: { EDITION: 'cloud' } });
    owner = await registerUser(community);
    routes = cloudOnlyRoutes(cloud.folio.app.routeTable, community.folio.app.routeTable);
  });
  afterAll(async () => {
    await community.close();
    await cloud.close();
  });

  it('knows the Cloud routes it must refuse', () => {
    for (const route of [
      'GET /api/v1/users/me/export',
      'DELETE /api/v1/users/me',
      'GET /api/v1/orgs/:handle/export',
      'GET /api/v1/admin/orgs',
      'PUT /api/v1/admin/orgs/:id/plan',
      'POST /api/v1/admin/users/:id/impersonate',
      'GET /api/v1/admin/audit-log',
      'GET /api/v1/admin/domains',
      'GET /api/v1/admin/health',
      'GET /api/v1/admin/analytics/growth',
    ])
      expect(routes).toContain(route);
  });

  it('answers 404 NOT_FOUND on every Cloud route, to its platform owner and to anonymous callers', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const [method, pattern] = route.split(' ') as [string, string];
      const url = pattern.replace(/:[A-Za-z_]+/g, 'x').replace(/\*$/, 'x');
      for (const token of [owner.token, undefined]) {
        const res = await community.request(method, url, {
          ...(token ? { token } : {}),
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
          headers: { accept: 'application/json' },
        });
        if (res.status !== 404 || res.body?.error !== 'NOT_FOUND')
          failures.push(
            `${route} (${token ? 'owner' : 'anonymous'}): ${res.status} ${res.text.slice(0, 100)}`,
          );
      }
    }
    expect(failures).toEqual([]);
  });

  it("describes every Cloud route in the Cloud server's OpenAPI document", async () => {
    const res = await fetch(`${cloud.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    const missing = routes.filter((route) => {
      const [method, url] = route.split(' ') as [string, string];
      return !doc.paths[url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[method.toLowerCase()];
    });
    expect(missing).toEqual([]);
  });

  it('keeps the onboarding route both editions share', async () => {
    const res = await community.request('GET', '/api/v1/users/me/onboarding', { token: owner.token });
    expect(res.status).toBe(200);
  });
});
