/**
 * The editor's live preview over HTTP: posted page text comes back rendered exactly as the
 * published site renders that page, links and images resolved for its path, with the
 * workspace's theme; readers of the workspace may use it, nobody else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, grantRole, type TestWorkspace } from '../helpers/workspace-access.js';
import { get, PNG, setSettings, startPublishing, upload } from './publishing-helpers.js';

const SETUP_BODY = '## Install\n\nRun the [[index|home]] installer, see [intro](intro.md).\n\n- one\n- two\n';

/** The article header and prose of a published page, as the site serves them. */
function articleOf(html: string): string {
  const header = /<header class="article-header">[\s\S]*?<\/header>/.exec(html)?.[0];
  const prose = /<div class="prose">\n[\s\S]*?\n<\/div>(?=<footer class="article-footer">|<\/article>)/.exec(
    html,
  )?.[0];
  if (!header || !prose) throw new Error(`no article in ${html.slice(0, 200)}`);
  return header + prose;
}

describe('page preview', () => {
  let server: TestServer;
  let owner: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let ws: TestWorkspace;
  let diagram: string;

  const preview = (user: TestUser | null, body: unknown, workspace = ws.slug) =>
    server.request('POST', `/api/v1/content/${workspace}/preview`, {
      ...(user ? { token: user.token } : {}),
      body,
    });

  beforeAll(async () => {
    server = await startPublishing();
    [owner, viewer, outsider] = [
      await registerUser(server),
      await registerUser(server),
      await registerUser(server),
    ];
    ws = await createWorkspace(server, owner, 'manual');
    await grantRole(server, ws, viewer, 'viewer');
    diagram = await upload(server, owner, ws, 'diagram.png', PNG);
    await createPage(server, owner, ws, 'index.md', { title: 'Manual', body: 'Welcome.', publish: true });
    await createPage(server, owner, ws, 'guides/intro.md', { title: 'Intro', body: 'Hi.', publish: true });
    await createPage(server, owner, ws, 'guides/setup.md', {
      title: 'Setup',
      description: 'How to set things up',
      body: SETUP_BODY,
      publish: true,
    });
    await setSettings(server, owner, ws, { public_site: true, theme: 'rose' });
  });

  afterAll(() => server.close());

  it('renders the page as the published site does, with its theme', async () => {
    const content = `---\ntitle: Setup\ndescription: How to set things up\nstatus: published\n---\n\n${SETUP_BODY}`;
    const res = await preview(owner, { path: 'guides/setup.md', content });
    expect(res.status).toBe(200);
    const site = await get(server, '/p/manual/guides/setup');
    expect(site.status).toBe(200);
    expect(res.body.html).toBe(articleOf(site.text));
    expect(res.body.html).toContain('<a href="/p/manual/guides/intro">intro</a>');
    expect(res.body.title).toBe('Setup');
    expect(res.body.theme).toBe('rose');
    expect(site.text).toContain(`<link rel="stylesheet" href="${res.body.stylesheet}">`);
  });

  it("renders in another theme when asked, with that theme's stylesheet, and refuses an unknown one", async () => {
    const content = '# Sample\n\nSome text.\n';
    const forest = await preview(owner, { path: 'sample.md', content, theme: 'forest' });
    expect(forest.status).toBe(200);
    expect(forest.body.theme).toBe('forest');
    expect(forest.body.stylesheet).toMatch(/\/theme-forest-[^/]+\.css$/);
    const css = await get(server, forest.body.stylesheet);
    expect(css.status).toBe(200);
    const own = await preview(owner, { path: 'sample.md', content });
    expect(own.body.html).toBe(forest.body.html);
    expect(own.body.theme).toBe('rose');
    const unknown = await preview(owner, { path: 'sample.md', content, theme: 'neon' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('VALIDATION_ERROR');
  });

  it('resolves wikilinks, relative links and images for an unpublished path', async () => {
    const content =
      `# Draft\n\nSee [[guides/setup]] and [the intro](../guides/intro.md).\n\n` +
      `![Diagram](../uploads/${diagram})\n\n<script>alert(1)</script>`;
    const res = await preview(viewer, { path: 'notes/draft', content });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Draft');
    expect(res.body.html).toContain('<h1');
    expect(res.body.html).toContain('href="/p/manual/guides/setup"');
    expect(res.body.html).toContain('href="/p/manual/guides/intro"');
    expect(res.body.html).toContain(`src="/p/manual/uploads/${diagram}"`);
    expect(res.body.html).not.toContain('<script');
  });

  it('takes the title from the frontmatter, else from the path', async () => {
    const titled = await preview(owner, { path: 'a.md', content: '---\ntitle: Named\n---\n\nText.' });
    expect(titled.body.title).toBe('Named');
    expect(titled.body.html).toContain('<h1>Named</h1>');
    const untitled = await preview(owner, { path: 'getting-started.md', content: 'Text.' });
    expect(untitled.body.title).toBe('Getting started');
  });

  it('refuses anonymous callers with 401', async () => {
    const res = await preview(null, { path: 'a.md', content: 'x' });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('UNAUTHORIZED');
  });

  it('answers 404 for an unknown workspace', async () => {
    const res = await preview(owner, { path: 'a.md', content: 'x' }, 'no-such-workspace');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('NOT_FOUND');
  });

  it('refuses a caller who is not a member, as if the workspace did not exist', async () => {
    const res = await preview(outsider, { path: 'a.md', content: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('NOT_FOUND');
  });

  it.each([
    ['no content', { path: 'a.md' }],
    ['no path', { content: 'x' }],
    ['a path out of the workspace', { path: '../secret.md', content: 'x' }],
    ['an unknown field', { path: 'a.md', content: 'x', body: 'y' }],
    ['content that is not text', { path: 'a.md', content: 42 }],
  ])('answers 400 for %s', async (_name, body) => {
    const res = await preview(owner, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('VALIDATION_ERROR');
  });
});
