/**
 * One page cannot stall the server: pages render in worker threads within a time budget,
 * pages above the size limit are shown as plain text, and the inputs that used to render
 * in super-linear time (many equal headings, long runs of `[`) render in full.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, type TestWorkspace } from '../helpers/workspace-access.js';
import { get, setSettings, startPublishing } from './publishing-helpers.js';

async function publicSite(server: TestServer, slug: string): Promise<{ owner: TestUser; ws: TestWorkspace }> {
  const owner = await registerUser(server);
  const ws = await createWorkspace(server, owner, slug);
  await setSettings(server, owner, ws, { public_site: true });
  return { owner, ws };
}

describe('a page that renders slowly or is too large', () => {
  let server: TestServer;
  let owner: TestUser;
  let ws: TestWorkspace;

  beforeAll(async () => {
    server = await startPublishing({
      env: { RENDER_TIMEOUT_MS: '2000', RENDER_MAX_BYTES: String(1024 * 1024) },
    });
    ({ owner, ws } = await publicSite(server, 'heavy'));
  });

  afterAll(() => server.close());

  it(
    'renders in a worker: /api/health answers while it runs, and it ends as plain text',
    { timeout: 90_000 },
    async () => {
      // Deeply nested raw HTML: the HTML parser's work grows with the square of the depth,
      // far beyond the 2 s budget.
      const body = `Before the tags.\n\n${'<span>'.repeat(150_000)}`;
      await createPage(server, owner, ws, 'nested.md', { title: 'Nested', body, publish: true });

      let pageSettled = false;
      const page = get(server, '/p/heavy/nested').finally(() => (pageSettled = true));
      await new Promise((r) => setTimeout(r, 200));
      const health = await server.request('GET', '/api/health');
      expect(health.status).toBe(200);
      expect(pageSettled).toBe(false);

      const res = await page;
      expect(res.status).toBe(200);
      expect(res.text).toContain('This page took longer than 2 s to render, so it is shown as plain text.');
      expect(res.text).toContain('Before the tags.\n\n&lt;span&gt;&lt;span&gt;');
      // A second request is answered from the cache instead of spending the budget again.
      const again = await get(server, '/p/heavy/nested');
      expect(again.text).toContain('shown as plain text');
    },
  );

  it('shows a page above RENDER_MAX_BYTES as escaped preformatted text with a notice', async () => {
    const body = `# Big\n\n<script>alert(1)</script>\n\n${'word '.repeat(220_000)}`;
    await createPage(server, owner, ws, 'big.md', { title: 'Big', body, publish: true });
    const res = await get(server, '/p/heavy/big');
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      'This page is larger than 1 MB, the most Folio renders, so it is shown as plain text.',
    );
    expect(res.text).toContain('<code class="hljs"># Big\n\n&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.text).not.toContain('<script>alert(1)');
  });

  it('still renders an ordinary page of the same site as Markdown', async () => {
    await createPage(server, owner, ws, 'small.md', {
      title: 'Small',
      body: '## Hello\n\nWorld.',
      publish: true,
    });
    const res = await get(server, '/p/heavy/small');
    expect(res.text).toContain('<h2 id="hello">Hello</h2>');
    expect(res.text).not.toContain('shown as plain text');
  });
});

describe('inputs that used to render in super-linear time', () => {
  let server: TestServer;
  let owner: TestUser;
  let ws: TestWorkspace;

  beforeAll(async () => {
    // A budget far above what these pages need, so they render in full.
    server = await startPublishing({ env: { RENDER_TIMEOUT_MS: '120000' } });
    ({ owner, ws } = await publicSite(server, 'linear'));
  });

  afterAll(() => server.close());

  // Generous timeouts: these took minutes before, and seconds on a busy machine now.
  it('renders 20,000 equal headings with unique ids', { timeout: 90_000 }, async () => {
    const body = '# h\n'.repeat(20_000);
    await createPage(server, owner, ws, 'headings.md', { title: 'Headings', body, publish: true });
    const res = await get(server, '/p/linear/headings');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1 id="h-19999">h</h1>');
    expect(res.text).not.toContain('shown as plain text');
  });

  it('renders a paragraph of 300,000 opening brackets', { timeout: 90_000 }, async () => {
    const body = `${'['.repeat(300_000)} [[headings]]`;
    await createPage(server, owner, ws, 'brackets.md', { title: 'Brackets', body, publish: true });
    const res = await get(server, '/p/linear/brackets');
    expect(res.status).toBe(200);
    expect(res.text).toContain('[[[[[[');
    expect(res.text).toContain('<a class="wikilink" href="/p/linear/headings">headings</a>');
  });
});
