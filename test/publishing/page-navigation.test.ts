/**
 * `GET /api/v1/content/:workspace/navigation`: the writers' sidebar in the docs tool's
 * reading order, drafts included, with the pages the tool leaves out listed apart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createWorkspace, grantRole, type TestWorkspace } from '../helpers/workspace-access.js';
import { setSettings, startPublishing } from './publishing-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

let server: TestServer;
let owner: TestUser;
let viewer: TestUser;

/** A workspace whose files are written straight into its tree, as a clone would bring them. */
async function workspaceWith(slug: string, files: Record<string, string>): Promise<TestWorkspace> {
  const ws = await createWorkspace(server, owner, slug);
  const root = path.join(server.dataDir, 'workspaces', ws.id);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  const pages = Object.keys(files).filter((f) => f.endsWith('.md'));
  await server.request('GET', `/api/v1/content/${ws.slug}/${pages[0]}`, { token: owner.token });
  for (const p of pages) {
    await eventually(async () => {
      const res = await server.request('GET', `/api/v1/content/${ws.slug}/${p}`, { token: owner.token });
      return res.status === 200;
    }, 30_000);
  }
  await grantRole(server, ws, viewer, 'viewer');
  return ws;
}

const draft = (title: string) => `---\ntitle: ${title}\n---\n\n${title} text.\n`;

/** The answer's items as indented `title (path)` lines. */
function lines(items: any[], depth = 0): string[] {
  return items.flatMap((item) => {
    const pad = '  '.repeat(depth);
    if (item.type === 'link') return [`${pad}${item.title} -> ${item.href}`];
    if (item.type === 'page') return [`${pad}${item.title} (${item.path})`];
    return [`${pad}[${item.title}] (${item.path ?? '-'})`, ...lines(item.children, depth + 1)];
  });
}

beforeAll(async () => {
  server = await startPublishing();
  owner = await registerUser(server);
  viewer = await registerUser(server);
}, 60_000);

afterAll(() => server.close());

describe('the writers’ navigation', () => {
  it("answers MkDocs's nav order and labels to a viewer, drafts included, the rest apart", async () => {
    const ws = await workspaceWith('mk', {
      'mkdocs.yml': [
        'site_name: Mk',
        'nav:',
        '  - Home: index.md',
        '  - Setup:',
        '      - setup/index.md',
        '      - Installing it: setup/install.md',
        '  - Zebra first: zebra.md',
        '  - Changelog: https://example.com/changelog',
        '',
      ].join('\n'),
      'docs/index.md': draft('Welcome'),
      'docs/setup/index.md': draft('Setup overview'),
      'docs/setup/install.md': draft('Install'),
      'docs/zebra.md': draft('Zebra'),
      'docs/alpha.md': draft('Alpha'),
      'notes/todo.md': draft('Todo'),
    });
    const res = await server.request('GET', `/api/v1/content/${ws.slug}/navigation`, {
      token: viewer.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.following).toBe('mkdocs');
    expect(res.body.file).toBe('mkdocs.yml');
    expect(lines(res.body.items)).toEqual([
      'Home (docs/index.md)',
      '[Setup] (docs/setup/index.md)',
      '  Installing it (docs/setup/install.md)',
      'Zebra first (docs/zebra.md)',
      'Changelog -> https://example.com/changelog',
    ]);
    expect(res.body.not_in_navigation.map((p: any) => p.path)).toEqual(['docs/alpha.md', 'notes/todo.md']);
  }, 60_000);

  it('follows the folders when the workspace comes from no tool, or the setting says so', async () => {
    const ws = await workspaceWith('plain-nav', { 'b.md': draft('B'), 'a/c.md': draft('C') });
    const res = await server.request('GET', `/api/v1/content/${ws.slug}/navigation`, {
      token: owner.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ following: 'folio', file: null, items: [] });
    expect(res.body.not_in_navigation.map((p: any) => p.path)).toEqual(['a/c.md', 'b.md']);

    const mk = await workspaceWith('mk-off', {
      'mkdocs.yml': 'nav:\n  - index.md\n',
      'docs/index.md': draft('Home'),
    });
    await setSettings(server, owner, mk, { nav_source: 'folio' });
    const off = await server.request('GET', `/api/v1/content/${mk.slug}/navigation`, {
      token: owner.token,
    });
    expect(off.body).toMatchObject({ following: 'folio', items: [] });
  }, 60_000);

  it('is not found for someone who is not a member', async () => {
    const stranger = await registerUser(server);
    const res = await server.request('GET', `/api/v1/content/mk/navigation`, { token: stranger.token });
    expect(res.status).toBe(404);
  });
});
