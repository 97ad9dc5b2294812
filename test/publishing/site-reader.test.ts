/**
 * The published site as a reader meets it: URLs with and without trailing slashes, the
 * 404 page, the host's robots.txt, wikilinks by title and file name, the page header,
 * Markdown beside each page and the llms.txt files, and the small furniture of a page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, type TestWorkspace } from '../helpers/workspace-access.js';
import { cspNonce, get, PNG, setSettings, startPublishing, upload } from './publishing-helpers.js';

describeEachDatabase('published site for readers ($name)', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let ws: TestWorkspace;

  beforeAll(async () => {
    server = await startPublishing({}, target);
    owner = await registerUser(server);
    ws = await createWorkspace(server, owner, 'manual');
    const page = (path: string, fields: Parameters<typeof createPage>[4]) =>
      createPage(server, owner, ws, path, fields);
    await page('index.md', { title: 'Manual', body: '# Manual\n\nStart here.\n', publish: true });
    await page('guides/deployment.md', {
      title: 'Deployment',
      description: 'Shipping to production',
      body: '# Deployment\n\n## Blue-green deploys\n\nSwap traffic.\n\n## Rollback\n\nSwap back.\n',
      publish: true,
    });
    await page('reference/config-ref.md', {
      title: 'Configuration reference',
      body: 'Every setting.\n',
      publish: true,
    });
    await page('guides/overview.md', { title: 'Overview', body: 'Guides overview.\n', publish: true });
    await page('reference/overview.md', { title: 'Overview', body: 'Reference overview.\n', publish: true });
    await page('guides/linking.md', {
      title: 'Linking',
      body:
        'See [[Configuration reference]], [[deployment|how to deploy]], [[config-ref#Every]] ' +
        'and [[reference/overview]]; [[Overview]] is ambiguous.\n',
      publish: true,
    });
    await setSettings(server, owner, ws, { public_site: true, site_title: 'The Manual' });
  });

  afterAll(() => server.close());

  describe('URLs and the 404 page', () => {
    it('redirects a page URL with a trailing slash to the page', async () => {
      const res = await get(server, '/p/manual/guides/deployment/');
      expect(res.status).toBe(301);
      expect(res.headers.get('location')).toBe('/p/manual/guides/deployment');
    });

    it('gives the 404 page the site header, search and sidebar', async () => {
      const res = await get(server, '/p/manual/guides/nowhere');
      expect(res.status).toBe(404);
      expect(res.text).toContain('<h1>Page not found</h1>');
      expect(res.text).toContain(
        '<form class="site-search" role="search" aria-label="Site" action="/p/manual/search"',
      );
      expect(res.text).toContain('<nav id="site-nav" class="site-nav" aria-label="Pages">');
      expect(res.text).toContain('<a href="/p/manual/guides/deployment">Deployment</a>');
      expect(res.text).toContain('<a class="site-title" href="/p/manual/">The Manual</a>');
    });

    it('answers /p/ with a 404 page rather than a redirect to /p//', async () => {
      const res = await get(server, '/p/');
      expect(res.status).toBe(404);
      expect(res.headers.get('location')).toBeNull();
      expect(res.text).toContain('Page not found');
    });
  });

  describe('page header', () => {
    it("prints the body's own h1 first, then the description, then the table of contents", async () => {
      const res = await get(server, '/p/manual/guides/deployment');
      expect(res.status).toBe(200);
      const h1 = res.text.indexOf('<h1');
      const lede = res.text.indexOf('<p class="lede">Shipping to production</p>');
      const toc = res.text.indexOf('<details class="toc-inline">');
      expect(h1).toBeGreaterThan(-1);
      expect(lede).toBeGreaterThan(h1);
      expect(toc).toBeGreaterThan(lede);
      expect(res.text.match(/<h1[\s>]/g)).toHaveLength(1);
      expect(res.text).toMatch(
        /<header class="article-header"><div class="md-heading">\s*<h1 id="deployment">Deployment<\/h1>/,
      );
    });
  });

  describe('wikilinks', () => {
    it('resolves a wikilink by path, then by unique file name, then by unique title', async () => {
      const res = await get(server, '/p/manual/guides/linking');
      expect(res.status).toBe(200);
      expect(res.text).toContain(
        '<a class="wikilink" href="/p/manual/reference/config-ref">Configuration reference</a>',
      );
      expect(res.text).toContain('<a class="wikilink" href="/p/manual/guides/deployment">how to deploy</a>');
      expect(res.text).toContain('<a class="wikilink" href="/p/manual/reference/config-ref#every">');
      expect(res.text).toContain('<a class="wikilink" href="/p/manual/reference/overview">');
      // Two pages are titled "Overview": the link goes to neither.
      expect(res.text).toContain(
        '<span class="wikilink-missing" title="Missing page: Overview.md">Overview</span>',
      );
    });

    it('reports an ambiguous wikilink in the quality scan, naming the candidates', async () => {
      const res = await server.request('GET', `/api/v1/workspaces/${ws.id}/quality`, { token: owner.token });
      expect(res.status).toBe(200);
      const linking = res.body.pages.find((p: { path: string }) => p.path === 'guides/linking.md');
      expect(linking.issues).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            type: 'ambiguous_link',
            target: 'Overview',
            message: expect.stringContaining('guides/overview.md, reference/overview.md'),
          }),
        ]),
      );
      expect(linking.issues.filter((i: { type: string }) => i.type === 'dead_link')).toEqual([]);
      expect(res.body.issue_counts.ambiguous_link).toBe(1);
    });
  });

  describe('Markdown for machines', () => {
    it('serves <page>.md beside each page: title once, description, links resolved to URLs', async () => {
      const res = await get(server, '/p/manual/guides/linking.md');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(res.text).toMatch(/^# Linking\n\n/);
      expect(res.text).toMatch(
        /See \[Configuration reference\]\(https?:\/\/[^)\s]+\/p\/manual\/reference\/config-ref\), \[how to deploy\]\(https?:\/\/[^)\s]+\/p\/manual\/guides\/deployment\)/,
      );
      expect(res.text).not.toContain('[[');
      const deployment = await get(server, '/p/manual/guides/deployment.md');
      expect(deployment.text).toMatch(/^# Deployment\n\n> Shipping to production\n\n## Blue-green deploys/);
      expect(deployment.text.match(/^# /gm)).toHaveLength(1);
      expect((await get(server, '/p/manual/index.md')).text).toMatch(/^# Manual\n\nStart here\.\n$/);
    });

    it("links llms.txt to each page's Markdown and resolves links in llms-full.txt without repeating h1s", async () => {
      const llms = await get(server, '/p/manual/llms.txt');
      expect(llms.text).toMatch(
        /- \[Deployment\]\(https?:\/\/[^)\s]+\/p\/manual\/guides\/deployment\.md\): Shipping/,
      );
      const full = await get(server, '/p/manual/llms-full.txt');
      expect(full.text).not.toContain('[[');
      expect(full.text).toMatch(/\[how to deploy\]\(https?:\/\/[^)\s]+\/p\/manual\/guides\/deployment\)/);
      expect(full.text.match(/^# Deployment$/gm)).toHaveLength(1);
      expect(full.text).toMatch(
        /# Deployment\n\nURL: \S+\/p\/manual\/guides\/deployment\n\n> Shipping to production\n\n## Blue/,
      );
    });
  });

  describe('small things', () => {
    it('names every landmark once: one "On this page" navigation, distinct search landmarks', async () => {
      const page = await get(server, '/p/manual/guides/deployment');
      expect(page.text.match(/aria-label="On this page"/g)).toHaveLength(1);
      expect(page.text).toContain(
        '<details class="toc-inline"><summary>On this page</summary><div class="toc"><ol>',
      );
      const search = await get(server, '/p/manual/search?q=swap');
      const labels = [...search.text.matchAll(/role="search" aria-label="([^"]+)"/g)].map((m) => m[1]);
      expect(labels).toEqual(['Site', 'Search results']);
    });

    it("links every page to a favicon in the theme's colours, and serves it", async () => {
      const page = await get(server, '/p/manual/guides/deployment');
      expect(page.text).toContain(
        '<link rel="icon" type="image/svg+xml" href="/p/manual/_assets/favicon-default.svg">',
      );
      const missing = await get(server, '/p/manual/nowhere');
      expect(missing.text).toContain('href="/p/manual/_assets/favicon-default.svg"');
      const icon = await get(server, '/p/manual/_assets/favicon-default.svg');
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toBe('image/svg+xml');
      expect(icon.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(icon.text).toContain('fill="#0969da"');
      expect((await get(server, '/p/manual/_assets/favicon-neon.svg')).status).toBe(404);
    });

    it('announces the RSS feed\'s own address with atom:link rel="self"', async () => {
      const rss = await get(server, '/p/manual/rss.xml');
      expect(rss.text).toContain('xmlns:atom="http://www.w3.org/2005/Atom"');
      expect(rss.text).toMatch(
        /<atom:link href="https?:\/\/[^"]+\/p\/manual\/rss\.xml" rel="self" type="application\/rss\+xml"\/>/,
      );
    });
  });

  describe('code blocks, definition lists and the menu', () => {
    beforeAll(async () => {
      await createPage(server, owner, ws, 'guides/commands.md', {
        title: 'Commands',
        body:
          '# Commands\n\n```bash title="install"\nnpm install folio\n```\n\n' +
          '    plain indented code\n\nWorkspace\n: A folder of pages.\n',
        publish: true,
      });
    });

    it("labels a fenced code block with its fence's language and leaves the Copy button to the script", async () => {
      const res = await get(server, '/p/manual/guides/commands');
      expect(res.status).toBe(200);
      expect(res.text).toContain(
        '<div class="code-block"><div class="code-label">bash</div><pre class="hljs" tabindex="0"><code class="hljs language-bash">',
      );
      // An indented block has no language: a frame (for the Copy button) without a label.
      expect(res.text).toContain(
        '<div class="code-block"><pre class="hljs" tabindex="0"><code class="hljs">plain indented code',
      );
      // Without JavaScript there is no Copy button; the nonce'd site script adds it.
      expect(res.text).not.toContain('code-copy"');
      const nonce = cspNonce(res.headers);
      expect(nonce).toBeTruthy();
      const scripts = [...res.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      const site = scripts.find(([, , body]) => body?.includes("'.code-block'"));
      expect(site?.[1]).toBe(` nonce="${nonce}"`);
      expect(res.text).not.toMatch(/\son[a-z]+=/);
    });

    it('renders a definition list', async () => {
      const res = await get(server, '/p/manual/guides/commands');
      expect(res.text).toMatch(/<dl>\s*<dt>Workspace<\/dt>\s*<dd>A folder of pages\.<\/dd>\s*<\/dl>/);
    });

    it('keeps Menu a link to the navigation and adds a hidden drawer button for the script', async () => {
      const res = await get(server, '/p/manual/guides/commands');
      expect(res.text).toContain('<a class="nav-jump" href="#site-nav">Menu</a>');
      expect(res.text).toContain(
        '<button type="button" class="nav-toggle" data-folio-nav-toggle aria-expanded="false" aria-controls="site-nav" hidden>Menu</button>',
      );
    });
  });

  describe("the workspace's own favicon", () => {
    it('links uploads/favicon.png once uploaded, and serves it though no page references it', async () => {
      const own = await createWorkspace(server, owner, 'iconic');
      await createPage(server, owner, own, 'index.md', { title: 'Iconic', body: 'Hello.\n', publish: true });
      await setSettings(server, owner, own, { public_site: true });
      const before = await get(server, '/p/iconic/');
      expect(before.text).toContain(
        '<link rel="icon" type="image/svg+xml" href="/p/iconic/_assets/favicon-default.svg">',
      );
      expect((await get(server, '/p/iconic/uploads/favicon.png')).status).toBe(404);

      expect(await upload(server, owner, own, 'favicon.png', PNG)).toBe('favicon.png');
      const after = await get(server, '/p/iconic/');
      expect(after.text).toContain('<link rel="icon" type="image/png" href="/p/iconic/uploads/favicon.png">');
      expect(after.text).not.toContain('_assets/favicon-default.svg');
      const missing = await get(server, '/p/iconic/nowhere');
      expect(missing.text).toContain('href="/p/iconic/uploads/favicon.png"');
      const icon = await get(server, '/p/iconic/uploads/favicon.png');
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toBe('image/png');
      // Other unreferenced uploads stay private to the workspace.
      const other = await upload(server, owner, own, 'diagram.png', PNG);
      expect((await get(server, `/p/iconic/uploads/${other}`)).status).toBe(404);
    });
  });

  describe('robots.txt at the host root', () => {
    it('lists the sitemap of every public site and none of a members-only one', async () => {
      const hidden = await createWorkspace(server, owner, 'internal-notes');
      await setSettings(server, owner, hidden, { public_site: false });
      const res = await get(server, '/robots.txt');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.text).toContain('User-agent: *\n');
      expect(res.text).toContain('Allow: /p/\n');
      expect(res.text).toMatch(/\nSitemap: https?:\/\/[^/\s]+\/p\/manual\/sitemap\.xml\n/);
      expect(res.text).not.toContain('internal-notes');
    });
  });
});
