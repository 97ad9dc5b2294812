/**
 * The published site over HTTP: pages as themed HTML with the cache headers, the ETag
 * and 304, the navigation furniture, drafts and members-only sites, redirects for moved
 * pages, search over published pages only, feeds, uploads and publishing a workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { themeCssHash } from '../../src/render/themes.js';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, grantRole, type TestWorkspace } from '../helpers/workspace-access.js';
import { cspNonce, editPage, get, PNG, setSettings, startPublishing, upload } from './publishing-helpers.js';

describeEachDatabase('published site ($name)', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let ws: TestWorkspace;
  let diagram: string;
  let unreferenced: string;

  beforeAll(async () => {
    server = await startPublishing({}, target);
    owner = await registerUser(server);
    viewer = await registerUser(server);
    outsider = await registerUser(server);
    ws = await createWorkspace(server, owner, 'handbook');
    await grantRole(server, ws, viewer, 'viewer');
    diagram = await upload(server, owner, ws, 'diagram.png', PNG);
    unreferenced = await upload(server, owner, ws, 'private.png', PNG);
    const page = (path: string, fields: Parameters<typeof createPage>[4]) =>
      createPage(server, owner, ws, path, fields);
    await page('index.md', {
      title: 'Handbook',
      body: '# Handbook\n\nWelcome. Start with [[guides/setup|the setup guide]] or [the intro](guides/intro.md).\n',
      publish: true,
    });
    await page('guides/setup.md', {
      title: 'Setup',
      description: 'How to set things up',
      body: `## Install\n\nRun the installer.\n\n## Configure\n\nEdit the file.\n\n![Diagram](../uploads/${diagram})\n`,
      publish: true,
    });
    await page('guides/intro.md', {
      title: 'Intro',
      body: 'An introduction with [[secret]] inside.',
      publish: true,
    });
    await page('secret.md', { title: 'Secret plans', body: 'Unpublished zeppelin words.' });
    await setSettings(server, owner, ws, { public_site: true, theme: 'forest', site_title: 'The Handbook' });
  });

  afterAll(() => server.close());

  describe('published pages', () => {
    it('serves a page as HTML with the theme stylesheet, cache headers and a weak ETag', async () => {
      const res = await get(server, '/p/handbook/guides/setup');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(res.headers.get('etag')).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
      const css = `/p/handbook/_assets/theme-forest-${themeCssHash('forest')}.css`;
      expect(res.text).toContain(`<link rel="stylesheet" href="${css}">`);
      expect(res.text).toContain('<title>Setup · The Handbook</title>');
      expect(res.text).toContain('<p class="lede">How to set things up</p>');
      // Table of contents, breadcrumbs, previous/next and the sidebar.
      expect(res.text).toContain('<a href="#install">Install</a>');
      expect(res.text).toContain(
        '<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="/p/handbook/">Handbook</a>',
      );
      expect(res.text).toMatch(
        /rel="prev" href="\/p\/handbook\/guides\/intro"|rel="next" href="\/p\/handbook\/guides\/intro"/,
      );
      expect(res.text).toContain('<a href="/p/handbook/guides/setup" aria-current="page">Setup</a>');
      expect(res.text).toContain(`<img src="/p/handbook/uploads/${diagram}" alt="Diagram"`);
      expect(res.text).toContain(
        // The form still submits without JavaScript; its data- attributes lead the palette.
        '<form class="site-search" role="search" aria-label="Site" action="/p/handbook/search" method="get"',
      );

      const sheet = await get(server, css);
      expect(sheet.status).toBe(200);
      expect(sheet.headers.get('content-type')).toBe('text/css; charset=utf-8');
      expect(sheet.headers.get('cache-control')).toContain('immutable');
      expect(sheet.text).toContain('--bg:');
    });

    it('answers 304 to a matching If-None-Match although every response has its own nonce', async () => {
      const first = await get(server, '/p/handbook/guides/setup');
      const second = await get(server, '/p/handbook/guides/setup');
      const nonce = cspNonce(first.headers);
      expect(nonce).toBeTruthy();
      expect(cspNonce(second.headers)).not.toBe(nonce);
      expect(first.text).toContain(`nonce="${nonce}"`);
      expect(first.text).not.toContain('__FOLIO_CSP_NONCE__');
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));

      const etag = first.headers.get('etag')!;
      const cached = await get(server, '/p/handbook/guides/setup', { 'if-none-match': etag });
      expect(cached.status).toBe(304);
      expect(cached.text).toBe('');
      expect(cached.headers.get('etag')).toBe(etag);
      expect((await get(server, '/p/handbook/guides/setup', { 'if-none-match': 'W/"other"' })).status).toBe(
        200,
      );

      await editPage(
        server,
        owner,
        ws,
        'guides/setup.md',
        `## Install\n\nRun the new installer.\n\n![Diagram](../uploads/${diagram})\n`,
      );
      const changed = await get(server, '/p/handbook/guides/setup', { 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.text).toContain('Run the new installer.');
      expect(changed.headers.get('etag')).not.toBe(etag);
    });

    it('serves index.md at its folder, resolves wikilinks and relative links to published URLs', async () => {
      const home = await get(server, '/p/handbook/');
      expect(home.status).toBe(200);
      expect(home.text).toContain('<a class="wikilink" href="/p/handbook/guides/setup">the setup guide</a>');
      expect(home.text).toContain('<a href="/p/handbook/guides/intro">the intro</a>');
      expect((await get(server, '/p/handbook')).headers.get('location')).toBe('/p/handbook/');
      expect((await get(server, '/p/handbook/index')).headers.get('location')).toBe('/p/handbook/');
      expect((await get(server, '/p/handbook/guides/setup.md')).headers.get('content-type')).toBe(
        'text/markdown; charset=utf-8',
      );
      // A folder without an index page gets a generated list of its pages.
      const folder = await get(server, '/p/handbook/guides/');
      expect(folder.status).toBe(200);
      expect(folder.text).toContain('<a href="/p/handbook/guides/intro">Intro</a>');
      expect((await get(server, '/p/handbook/guides')).headers.get('location')).toBe('/p/handbook/guides/');
    });

    it('never serves a draft, nor links to one', async () => {
      const draft = await get(server, '/p/handbook/secret');
      expect(draft.status).toBe(404);
      expect(draft.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(draft.text).toContain('Page not found');
      expect(draft.text).not.toContain('zeppelin');
      const intro = await get(server, '/p/handbook/guides/intro');
      expect(intro.text).toContain('<span class="wikilink-missing"');
      expect(intro.text).not.toContain('href="/p/handbook/secret"');
      expect(intro.text).not.toContain('Secret plans');
      expect((await get(server, '/p/nonexistent-site/')).status).toBe(404);
      expect((await get(server, '/p/handbook/%E0%A4%A')).status).toBeLessThan(500);
    });

    it('searches published pages only', async () => {
      const found = await get(server, '/p/handbook/search?q=installer');
      expect(found.status).toBe(200);
      expect(found.text).toContain('href="/p/handbook/guides/setup"');
      expect(found.text).toContain('<mark>');
      const hidden = await get(server, '/p/handbook/search?q=zeppelin');
      expect(hidden.text).toContain('0 results');
      expect(hidden.text).not.toContain('Secret plans');
      const empty = await get(server, '/p/handbook/search');
      expect(empty.status).toBe(200);
      expect(empty.text).toContain('Type a word or phrase');
      const evil = await get(
        server,
        `/p/handbook/search?q=${encodeURIComponent('<script>alert(1)</script>')}`,
      );
      expect(evil.status).toBe(200);
      expect(evil.text).not.toContain('<script>alert(1)</script>');
    });

    it('serves sitemap.xml, robots.txt, rss.xml, llms.txt and llms-full.txt of the published pages', async () => {
      const sitemap = await get(server, '/p/handbook/sitemap.xml');
      expect(sitemap.headers.get('content-type')).toContain('application/xml');
      expect(sitemap.text).toContain('/p/handbook/guides/setup</loc>');
      expect(sitemap.text).not.toContain('secret');
      const robots = await get(server, '/p/handbook/robots.txt');
      expect(robots.text).toContain('Allow: /');
      expect(robots.text).toMatch(/Sitemap: http:\/\/\S+\/p\/handbook\/sitemap\.xml/);
      const rss = await get(server, '/p/handbook/rss.xml');
      expect(rss.text).toContain('<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">');
      expect(rss.text).toContain('<title>Setup</title>');
      const llms = await get(server, '/p/handbook/llms.txt');
      expect(llms.text).toMatch(/^# The Handbook\n/);
      expect(llms.text).toContain('[Setup](');
      expect(llms.text).toContain('## guides'.replace('guides', 'Guides'));
      const full = await get(server, '/p/handbook/llms-full.txt');
      // The unpublished page's wikilink is plain text: nothing is published there.
      expect(full.text).toContain('An introduction with secret inside.');
      expect(full.text).not.toContain('zeppelin');
    });

    it('serves uploads that published pages reference, with the upload CSP, and nothing else', async () => {
      const onSite = await get(server, `/p/handbook/uploads/${diagram}`);
      expect(onSite.status).toBe(200);
      expect(onSite.headers.get('content-type')).toBe('image/png');
      expect(onSite.headers.get('content-security-policy')).toContain('sandbox');
      expect((await get(server, `/p/handbook/uploads/${unreferenced}`)).status).toBe(404);
      // The API serves referenced uploads of a public site without sign-in, and only those.
      const viaApi = await get(server, `/api/v1/content/handbook/uploads/${diagram}`);
      expect(viaApi.status).toBe(200);
      expect(viaApi.headers.get('content-type')).toBe('image/png');
      expect((await get(server, `/api/v1/content/handbook/uploads/${unreferenced}`)).status).toBe(401);
    });

    it('redirects the old URL of a moved page with 301', async () => {
      const moved = await server.request('PATCH', `/api/v1/content/${ws.slug}/guides/intro.md`, {
        token: owner.token,
        body: { new_path: 'guides/introduction.md' },
      });
      expect(moved.status).toBe(200);
      const old = await get(server, '/p/handbook/guides/intro');
      expect(old.status).toBe(301);
      expect(old.headers.get('location')).toBe('/p/handbook/guides/introduction');
      expect((await get(server, '/p/handbook/guides/introduction')).status).toBe(200);
    });
  });

  describe('members-only sites', () => {
    beforeAll(() => setSettings(server, owner, ws, { public_site: false }));
    afterAll(() => setSettings(server, owner, ws, { public_site: true }));

    it('answers an anonymous reader 404 with a sign-in link, and a member with the page', async () => {
      const anonymous = await get(server, '/p/handbook/guides/setup');
      expect(anonymous.status).toBe(404);
      expect(anonymous.text).toContain('Sign in</a>');
      expect(anonymous.text).not.toContain('installer');
      // A missing workspace looks the same, so the 404 does not reveal which sites exist.
      const missing = await get(server, '/p/no-such-site/guides/setup');
      expect(missing.status).toBe(404);
      expect(missing.text).toContain('Sign in</a>');

      const member = await get(server, '/p/handbook/guides/setup', {
        cookie: `folio_access=${viewer.token}`,
      });
      expect(member.status).toBe(200);
      expect(member.text).toContain('installer');
      expect(member.headers.get('cache-control')).toBe('private, no-cache');

      const stranger = await get(server, '/p/handbook/guides/setup', {
        cookie: `folio_access=${outsider.token}`,
      });
      expect(stranger.status).toBe(404);
      expect(stranger.text).not.toContain('installer');
      // A stale cookie makes a reader anonymous rather than earning a JSON 401.
      const stale = await get(server, '/p/handbook/guides/setup', { cookie: 'folio_access=not-a-token' });
      expect(stale.status).toBe(404);
      expect(stale.headers.get('content-type')).toContain('text/html');
      expect((await get(server, `/api/v1/content/handbook/uploads/${diagram}`)).status).toBe(401);
    });
  });

  describe('themes', () => {
    it('accepts every theme name through the settings API and refuses an unknown one', async () => {
      for (const theme of ['default', 'dark', 'forest', 'rose', 'amber', 'minimal', 'corporate']) {
        expect((await setSettings(server, owner, ws, { theme })).theme).toBe(theme);
        const page = await get(server, '/p/handbook/guides/setup');
        expect(page.text).toContain(
          `/p/handbook/_assets/theme-${theme}-${themeCssHash(theme as 'default')}.css`,
        );
      }
      const refused = await server.request('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, {
        token: owner.token,
        body: { theme: 'neon' },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('VALIDATION_ERROR');
      expect(refused.body.request_id).toBeTruthy();
    });
  });

  describe('publishing a workspace', () => {
    it('publishes every draft and makes the site public, for admins only', async () => {
      await setSettings(server, owner, ws, { public_site: false });
      const refused = await server.request('POST', `/api/v1/workspaces/${ws.id}/publish`, {
        token: viewer.token,
      });
      expect(refused.status).toBe(403);
      const res = await server.request('POST', `/api/v1/workspaces/${ws.id}/publish`, { token: owner.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ published: ['secret.md'], public_site: true });
      const page = await server.request('GET', `/api/v1/content/${ws.slug}/secret.md`, {
        token: owner.token,
      });
      expect(page.body.status).toBe('published');
      expect((await get(server, '/p/handbook/secret')).status).toBe(200);
      const activity = await server.request(
        'GET',
        `/api/v1/workspaces/${ws.id}/activity?action=page_updated`,
        {
          token: owner.token,
        },
      );
      expect(activity.body.data.some((a: { path: string }) => a.path === 'secret.md')).toBe(true);
    });
  });
});
