/**
 * The published site's sidebar follows the navigation of the tool a workspace's files come
 * from: MkDocs `nav:`, Docusaurus sidebars and `_category_` files, GitBook's SUMMARY.md, or
 * the folders (Folio's own rule and an Obsidian vault's), without rewriting a file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createWorkspace, type TestWorkspace } from '../helpers/workspace-access.js';
import { get, setSettings, startPublishing } from './publishing-helpers.js';

/** The sidebar as `title -> href` lines, nested entries indented, group toggles left out. */
function sidebar(html: string): string[] {
  const nav = /<nav id="site-nav"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  const lines: string[] = [];
  let depth = -1;
  for (const m of nav.matchAll(
    /<(\/?)ul>|<a href="([^"]+)"[^>]*>([^<]*)<\/a>|<summary><span>([^<]*)<\/span>/g,
  )) {
    if (m[1] === '' && m[0] === '<ul>') depth++;
    else if (m[1] === '/') depth--;
    else if (m[2]) lines.push(`${'  '.repeat(depth)}${m[3]} -> ${m[2]}`);
    else if (m[4]) lines.push(`${'  '.repeat(depth)}${m[4]}`);
  }
  return lines;
}

let server: TestServer;
let owner: TestUser;

/** A workspace whose files are written straight into its tree, as a clone would bring them. */
async function workspaceWith(slug: string, files: Record<string, string>): Promise<TestWorkspace> {
  const ws = await createWorkspace(server, owner, slug);
  const root = path.join(server.dataDir, 'workspaces', ws.id);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  await setSettings(server, owner, ws, { public_site: true });
  const pages = Object.keys(files).filter((f) => f.endsWith('.md'));
  // Reading a page new on disk has the index catch up with the files.
  await server.request('GET', `/api/v1/content/${ws.slug}/${pages[0]}`, { token: owner.token });
  const last = pages[pages.length - 1]!;
  await eventually(async () => {
    const res = await server.request('GET', `/api/v1/content/${ws.slug}/${last}`, { token: owner.token });
    return res.status === 200;
  }, 30_000);
  return ws;
}

const page = (title: string, extra = '') =>
  `---\ntitle: ${title}\nstatus: published\n${extra}---\n\n${title} text.\n`;

beforeAll(async () => {
  server = await startPublishing();
  owner = await registerUser(server);
}, 60_000);

afterAll(() => server.close());

describe("folders (Folio's own rule)", () => {
  it('links a folder to its index page once and lists folders before pages', async () => {
    const ws = await workspaceWith('plain', {
      'index.md': page('Home'),
      'api.md': page('API'),
      'getting-started/index.md': page('Getting started'),
      'getting-started/install.md': page('Install'),
      'getting-started/advanced/index.md': page('Advanced'),
      'getting-started/basics.md': page('Basics'),
      'zz-last.md': page('Pinned first', 'order: -1\n'),
    });
    const res = await get(server, `/p/${ws.slug}/getting-started/install`);
    expect(res.status).toBe(200);
    expect(sidebar(res.text)).toEqual([
      'Home -> /p/plain/',
      'Pinned first -> /p/plain/zz-last',
      'Getting started -> /p/plain/getting-started/',
      '  Advanced -> /p/plain/getting-started/advanced/',
      '  Basics -> /p/plain/getting-started/basics',
      '  Install -> /p/plain/getting-started/install',
      'API -> /p/plain/api',
    ]);
    // The folder's own page is its title link, never listed again inside it.
    const nav = /<nav id="site-nav"[\s\S]*?<\/nav>/.exec(res.text)![0];
    expect(nav.match(/>Getting started</g)).toHaveLength(1);
    expect(nav).toContain('<summary aria-label="Pages in Getting started"></summary>');
  });
});
