/** The quality report over HTTP: admins only; finds a planted dead link, a missing anchor and an orphan. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, grantRole, type TestWorkspace } from '../helpers/workspace-access.js';
import { startPublishing } from './publishing-helpers.js';

let server: TestServer;
let owner: TestUser;
let editor: TestUser;
let ws: TestWorkspace;

const PROSE =
  'Folio keeps your documentation in plain Markdown files. You write a page, save it, and readers see it at once. ' +
  'Each page has a title and a short description. Links between pages are checked for you. When a page moves, ' +
  'the links that point to it move too. Search finds words in every page you publish.';

beforeAll(async () => {
  server = await startPublishing();
  owner = await registerUser(server);
  editor = await registerUser(server);
  ws = await createWorkspace(server, owner, 'quality-docs');
  await grantRole(server, ws, editor, 'editor');
  const page = (p: string, body: string) =>
    createPage(server, owner, ws, p, { title: p, description: `About ${p}`, body, publish: true });
  await page(
    'index.md',
    `${PROSE}\n\nRead [[guides/setup]] and [[guides/gone]] and [setup](guides/setup.md#nowhere).`,
  );
  await page('guides/setup.md', `## Install\n\n${PROSE}\n\n![](../uploads/x.png)`);
  await page('lonely.md', PROSE);
});

afterAll(() => server.close());

describe('quality report', () => {
  it('finds the planted dead link, the missing anchor, the image without alt text and the orphan', async () => {
    const res = await server.request('GET', `/api/v1/workspaces/${ws.id}/quality`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.page_count).toBe(3);
    expect(res.body.score).toBeGreaterThanOrEqual(0);
    expect(res.body.score).toBeLessThan(100);
    const index = res.body.pages.find((p: { path: string }) => p.path === 'index.md');
    expect(index.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'dead_link', target: 'guides/gone', line: 3 }),
        expect.objectContaining({ type: 'missing_anchor', target: 'guides/setup.md#nowhere' }),
      ]),
    );
    expect(index.readability).toBeGreaterThan(40);
    expect(index.word_count).toBeGreaterThan(50);
    const setup = res.body.pages.find((p: { path: string }) => p.path === 'guides/setup.md');
    expect(setup.issues.map((i: { type: string }) => i.type)).toEqual(['missing_alt']);
    const lonely = res.body.pages.find((p: { path: string }) => p.path === 'lonely.md');
    expect(lonely.issues.map((i: { type: string }) => i.type)).toEqual(['orphan_page']);
    expect(res.body.issue_counts).toMatchObject({
      dead_link: 1,
      missing_anchor: 1,
      missing_alt: 1,
      orphan_page: 1,
    });
  });

  it('reports a page without title or description in its file', async () => {
    const put = await server.request('PUT', `/api/v1/content/${ws.slug}/bare.md`, {
      token: owner.token,
      body: { body: 'Short.' },
    });
    expect(put.status).toBe(201);
    const res = await server.request('GET', `/api/v1/workspaces/${ws.id}/quality`, { token: owner.token });
    const bare = res.body.pages.find((p: { path: string }) => p.path === 'bare.md');
    expect(bare.issues.map((i: { type: string }) => i.type).sort()).toEqual(
      ['missing_description', 'orphan_page', 'short_page'].sort(),
    );
  });

  it('is for admins: 403 for an editor, 404 for an outsider', async () => {
    const url = `/api/v1/workspaces/${ws.id}/quality`;
    expect((await server.request('GET', url, { token: editor.token })).status).toBe(403);
    const outsider = await registerUser(server);
    const res = await server.request('GET', url, { token: outsider.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('NOT_FOUND');
  });
});
