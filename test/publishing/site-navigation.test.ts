/**
 * The published site's sidebar in a large workspace: only the way to the page shown is
 * open, other folders are single links, and long folders are cut to a window around the
 * current page, so a page's HTML does not grow with the workspace.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NAV_WINDOW } from '../../src/services/publishing/site/nav.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { eventually } from '../helpers/eventually.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createWorkspace, type TestWorkspace } from '../helpers/workspace-access.js';
import { get, setSettings, startPublishing } from './publishing-helpers.js';

const GUIDES = 150;
const REFERENCE = 150;
const pad = (i: number) => String(i).padStart(3, '0');

/** The links of the sidebar only. */
function sidebarLinks(html: string): string[] {
  const nav = /<nav id="site-nav"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  return [...nav.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]!);
}

describeEachDatabase('published site navigation in a large workspace ($name)', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let ws: TestWorkspace;

  beforeAll(async () => {
    server = await startPublishing({}, target);
    owner = await registerUser(server);
    ws = await createWorkspace(server, owner, 'atlas');
    // Files written straight into the tree, as a clone or a copy would bring them.
    const write = (rel: string, title: string) => {
      const file = path.join(server.dataDir, 'workspaces', ws.id, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `---\ntitle: ${title}\nstatus: published\n---\n\nAbout ${title}.\n`);
    };
    write('index.md', 'Atlas');
    write('guides/index.md', 'Guides');
    for (let i = 0; i < GUIDES; i++) write(`guides/g${pad(i)}.md`, `Guide ${pad(i)}`);
    for (let i = 0; i < REFERENCE; i++) write(`reference/r${pad(i)}.md`, `Reference ${pad(i)}`);
    await setSettings(server, owner, ws, { public_site: true });
    // Reading a page new on disk has the index catch up with the files.
    await server.request('GET', `/api/v1/content/${ws.slug}/guides/g000.md`, { token: owner.token });
    await eventually(async () => (await get(server, '/p/atlas/reference/r149')).status === 200, 30_000);
  }, 120_000);

  afterAll(() => server.close());

  it('opens the current folder around the page and leaves the others as one link each', async () => {
    const page = await get(server, '/p/atlas/guides/g075');
    expect(page.status).toBe(200);
    const links = sidebarLinks(page.text);
    expect(links).toContain('/p/atlas/guides/g075');
    expect(links).toContain('/p/atlas/guides/g060');
    expect(links).not.toContain('/p/atlas/guides/g000');
    expect(links).not.toContain('/p/atlas/guides/g149');
    expect(links.filter((l) => l.startsWith('/p/atlas/guides/g'))).toHaveLength(NAV_WINDOW);
    // The other folder is one link to its generated list, none of its pages.
    expect(links).toContain('/p/atlas/reference/');
    expect(links.some((l) => l.startsWith('/p/atlas/reference/r'))).toBe(false);
    expect(page.text).toMatch(/\d+ more entries before/);
    expect(page.text).toMatch(/\d+ more entries after/);
    expect(page.text).toContain('aria-current="page"');
  });

  it('keeps a page the same size however many pages the workspace has', async () => {
    const before = (await get(server, '/p/atlas/guides/g075')).text.length;
    const file = (i: number) => path.join(server.dataDir, 'workspaces', ws.id, `archive/a${pad(i)}.md`);
    fs.mkdirSync(path.dirname(file(0)), { recursive: true });
    for (let i = 0; i < 300; i++)
      fs.writeFileSync(file(i), `---\ntitle: Archive ${pad(i)}\nstatus: published\n---\n\nOld.\n`);
    await server.request('GET', `/api/v1/content/${ws.slug}/archive/a000.md`, { token: owner.token });
    await eventually(async () => (await get(server, '/p/atlas/archive/a299')).status === 200, 30_000);
    const after = await get(server, '/p/atlas/guides/g075');
    // One more folder link in the sidebar, nothing more.
    expect(after.text.length - before).toBeLessThan(200);
    expect(sidebarLinks(after.text)).toContain('/p/atlas/archive/');
  }, 60_000);

  it('lists every page of a folder on its own page, and the first pages at its start', async () => {
    const listing = await get(server, '/p/atlas/reference/');
    expect(listing.status).toBe(200);
    for (let i = 0; i < REFERENCE; i++) expect(listing.text).toContain(`/p/atlas/reference/r${pad(i)}`);
    const first = sidebarLinks((await get(server, '/p/atlas/reference/r000')).text);
    expect(first.filter((l) => l.startsWith('/p/atlas/reference/r'))).toHaveLength(NAV_WINDOW);
    expect(first).toContain('/p/atlas/reference/r000');
    expect(first).toContain('/p/atlas/guides/');
  });
});
