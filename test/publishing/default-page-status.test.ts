/**
 * `default_page_status`: the status of a page whose frontmatter sets none, as the files of
 * MkDocs, Docusaurus or GitBook usually do. A workspace's pages stay drafts until an admin
 * chooses otherwise, and the files are never rewritten for it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, type TestWorkspace } from '../helpers/workspace-access.js';
import { get, setSettings, startPublishing } from './publishing-helpers.js';

let server: TestServer;
let owner: TestUser;
let ws: TestWorkspace;
let root: string;

const NO_STATUS = '---\ntitle: Alpha\n---\n\nAlpha text.\n';

const statusOf = async (slug: string, p: string) =>
  (await server.request('GET', `/api/v1/content/${slug}/${p}`, { token: owner.token })).body.status;

beforeAll(async () => {
  server = await startPublishing();
  owner = await registerUser(server);
  ws = await createWorkspace(server, owner, 'tool-docs');
  root = path.join(server.dataDir, 'workspaces', ws.id);
  const files: Record<string, string> = {
    'mkdocs.yml': 'site_name: Tool\n',
    'docs/alpha.md': NO_STATUS,
    'docs/held.md': '---\ntitle: Held\nstatus: draft\n---\n\nHeld back.\n',
    'docs/legacy.md': '---\ntitle: Legacy\npublished: false\n---\n\nOld key.\n',
    'docs/bare.md': '# Bare\n\nNo frontmatter at all.\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  await setSettings(server, owner, ws, { public_site: true });
  for (const p of Object.keys(files).filter((f) => f.endsWith('.md'))) {
    await eventually(async () => {
      const res = await server.request('GET', `/api/v1/content/${ws.slug}/${p}`, { token: owner.token });
      return res.status === 200;
    }, 30_000);
  }
}, 60_000);

afterAll(() => server.close());

it('keeps pages without a status drafts by default, and says so to admins', async () => {
  expect(await statusOf(ws.slug, 'docs/alpha.md')).toBe('draft');
  const nav = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/navigation`, {
    token: owner.token,
  });
  expect(nav.body).toMatchObject({ following: 'mkdocs', default_page_status: 'draft' });
  const settings = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/settings`, {
    token: owner.token,
  });
  expect(settings.body.default_page_status).toBe('draft');
  expect((await get(server, `/p/${ws.slug}/docs/alpha`)).status).toBe(404);
});

it('publishes the pages without a status once an admin sets it, and only those', async () => {
  const before = fs.readFileSync(path.join(root, 'docs/alpha.md'), 'utf8');
  const answer = await setSettings(server, owner, ws, { default_page_status: 'published' });
  expect(answer.default_page_status).toBe('published');
  expect(await statusOf(ws.slug, 'docs/alpha.md')).toBe('published');
  expect(await statusOf(ws.slug, 'docs/bare.md')).toBe('published');
  // A page that says it is a draft stays one, whichever key says it.
  expect(await statusOf(ws.slug, 'docs/held.md')).toBe('draft');
  expect(await statusOf(ws.slug, 'docs/legacy.md')).toBe('draft');
  // The files are not rewritten; the site shows the page.
  expect(fs.readFileSync(path.join(root, 'docs/alpha.md'), 'utf8')).toBe(before);
  await eventually(async () => (await get(server, `/p/${ws.slug}/docs/alpha`)).status === 200, 10_000);
  expect((await get(server, `/p/${ws.slug}/docs/held`)).status).toBe(404);

  // A file arriving later without a status is published too.
  fs.writeFileSync(path.join(root, 'docs/later.md'), '---\ntitle: Later\n---\n\nLater.\n');
  await eventually(async () => (await statusOf(ws.slug, 'docs/later.md')) === 'published', 30_000);

  // And back: they are drafts again.
  await setSettings(server, owner, ws, { default_page_status: 'draft' });
  expect(await statusOf(ws.slug, 'docs/alpha.md')).toBe('draft');
}, 60_000);

it("leaves a Folio workspace's drafts alone and refuses other values", async () => {
  const own = await createWorkspace(server, owner, 'own-docs');
  await createPage(server, owner, own, 'notes.md', { title: 'Notes', body: 'Draft.' });
  expect(await statusOf(own.slug, 'notes.md')).toBe('draft');
  const res = await server.request('PUT', `/api/v1/workspaces/${own.id}/admin/settings`, {
    token: owner.token,
    body: { default_page_status: 'maybe' },
  });
  expect(res.status).toBe(400);
  // A page written in Folio carries its status, so the setting does not publish it.
  await setSettings(server, owner, own, { default_page_status: 'published' });
  expect(await statusOf(own.slug, 'notes.md')).toBe('draft');
});
