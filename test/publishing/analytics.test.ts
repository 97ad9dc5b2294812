/**
 * Site analytics over HTTP: a view or search counts only after consent and never with
 * DNT or GPC; no IP address is stored; reports are for admins; Cloud Free has none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, grantRole, type TestWorkspace } from '../helpers/workspace-access.js';
import { get, setSettings, startPublishing } from './publishing-helpers.js';

describeEachDatabase('analytics ($name)', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let viewer: TestUser;
  let ws: TestWorkspace;

  const GRANTED = { cookie: 'folio_analytics=granted' };

  async function overview(srv = server, user = owner, wsId = ws.id) {
    return srv.request('GET', `/api/v1/workspaces/${wsId}/analytics/overview?days=7`, { token: user.token });
  }

  beforeAll(async () => {
    server = await startPublishing({}, target);
    owner = await registerUser(server);
    viewer = await registerUser(server);
    ws = await createWorkspace(server, owner, 'stats-docs');
    await grantRole(server, ws, viewer, 'viewer');
    await createPage(server, owner, ws, 'guide.md', {
      title: 'Guide',
      body: 'Counting visitors politely.',
      publish: true,
    });
    await setSettings(server, owner, ws, { public_site: true });
  });

  afterAll(() => server.close());

  describe('analytics', () => {
    it('counts a view only after consent, and not with DNT or GPC', async () => {
      expect((await get(server, '/p/stats-docs/guide')).status).toBe(200);
      expect((await overview()).body.views).toBe(0);

      const consent = await server.request('POST', '/api/analytics/consent', { body: { consent: true } });
      expect(consent.status).toBe(200);
      expect(consent.body).toEqual({ consent: true, recording: true });
      const cookie = consent.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^folio_analytics=granted;/);
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Strict');

      expect((await get(server, '/p/stats-docs/guide', GRANTED)).status).toBe(200);
      expect((await overview()).body).toMatchObject({ views: 1, visitors: 1 });
      await get(server, '/p/stats-docs/guide', { ...GRANTED, dnt: '1' });
      await get(server, '/p/stats-docs/guide', { ...GRANTED, 'sec-gpc': '1' });
      await get(server, '/p/stats-docs/guide', { cookie: 'folio_analytics=denied' });
      expect((await overview()).body.views).toBe(1);

      const withDnt = await server.request('POST', '/api/analytics/consent', {
        body: { consent: true },
        headers: { dnt: '1' },
      });
      expect(withDnt.body).toEqual({ consent: true, recording: false });

      await get(server, '/p/stats-docs/guide', { ...GRANTED, 'user-agent': 'Another browser' });
      const pages = await server.request('GET', `/api/v1/workspaces/${ws.id}/analytics/pages?days=30`, {
        token: owner.token,
      });
      expect(pages.status).toBe(200);
      expect(pages.body.data).toEqual([{ path: 'guide.md', views: 2, visitors: 2 }]);
    });

    it('stores a daily-salted visitor hash, never the IP address', async () => {
      const rows = await server.folio.store.db.selectFrom('page_views').selectAll().execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.visitor).toMatch(/^[0-9a-f]{32}$/);
        expect(JSON.stringify(row)).not.toMatch(/127\.0\.0\.1|::1/);
      }
      const salts = await server.folio.store.db.selectFrom('analytics_salts').selectAll().execute();
      expect(salts).toHaveLength(1);
      expect(salts[0]!.day).toBe(new Date().toISOString().slice(0, 10));
    });

    it('records site searches after consent', async () => {
      await get(server, '/p/stats-docs/search?q=visitors');
      await get(server, '/p/stats-docs/search?q=Visitors', GRANTED);
      await get(server, '/p/stats-docs/search?q=nothing-matches-this', GRANTED);
      const res = await server.request('GET', `/api/v1/workspaces/${ws.id}/analytics/searches`, {
        token: owner.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(
        expect.arrayContaining([
          { query: 'visitors', count: 1, no_results: 0 },
          { query: 'nothing-matches-this', count: 1, no_results: 1 },
        ]),
      );
      expect((await overview()).body.searches).toBe(2);

      const empty = await server.request(
        'GET',
        `/api/v1/workspaces/${ws.id}/analytics/searches?no_results=true`,
        { token: owner.token },
      );
      expect(empty.body.data).toEqual([{ query: 'nothing-matches-this', count: 1, no_results: 1 }]);
      const bad = await server.request(
        'GET',
        `/api/v1/workspaces/${ws.id}/analytics/searches?no_results=yes`,
        {
          token: owner.token,
        },
      );
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('VALIDATION_ERROR');
    });

    it('takes the site footer’s form post and returns to the page; refuses cross-site posts', async () => {
      const page = await get(server, '/p/stats-docs/guide');
      expect(page.text).toContain('<form class="consent" method="post" action="/api/analytics/consent">');
      const host = new URL(server.url).host;
      const post = (origin: string, returnTo: string) =>
        fetch(`${server.url}/api/analytics/consent`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
          body: `consent=true&return_to=${encodeURIComponent(returnTo)}`,
        });
      const ok = await post(`http://${host}`, '/p/stats-docs/guide');
      expect(ok.status).toBe(303);
      expect(ok.headers.get('location')).toBe('/p/stats-docs/guide');
      expect(ok.headers.get('set-cookie')).toMatch(/^folio_analytics=granted;/);
      const offsite = await post(`http://${host}`, '//evil.example/');
      expect(offsite.status).toBe(200);
      const cross = await post('https://evil.example', '/p/stats-docs/guide');
      expect(cross.status).toBe(403);
      const bad = await server.request('POST', '/api/analytics/consent', { body: { consent: 'maybe' } });
      expect(bad.status).toBe(400);
    });

    it('reports to admins only, with validated ranges', async () => {
      expect((await overview(server, viewer)).status).toBe(403);
      const range = await server.request('GET', `/api/v1/workspaces/${ws.id}/analytics/pages?days=0`, {
        token: owner.token,
      });
      expect(range.status).toBe(400);
      expect(range.body.error).toBe('VALIDATION_ERROR');
    });
  });

  describe('analytics in the Cloud edition', () => {
    it('answers 403 PLAN_LIMIT on the Free plan and reports on Team', async () => {
      const cloud = await startPublishing({ env: { EDITION: 'cloud' } }, target);
      try {
        const free = await registerUser(cloud);
        const team = await registerUser(cloud);
        const workspaces = async (user: TestUser) =>
          (await cloud.request('GET', '/api/v1/workspaces', { token: user.token })).body.data[0].id as string;
        const freeWs = await workspaces(free);
        const teamWs = await workspaces(team);
        const me = await cloud.request('GET', '/api/auth/me', { token: team.token });
        await cloud.folio.store.db
          .updateTable('orgs')
          .set({ plan: 'team' })
          .where('handle', '=', me.body.org.handle)
          .execute();

        const refused = await overview(cloud, free, freeWs);
        expect(refused.status).toBe(403);
        expect(refused.body.error).toBe('PLAN_LIMIT');
        expect((await overview(cloud, team, teamWs)).status).toBe(200);
      } finally {
        await cloud.close();
      }
    });
  });
});
