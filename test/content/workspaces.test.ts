import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import { workspaceMetaFile } from '../../src/content/workspace-meta.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import {
  addMember,
  type ContentServer,
  fileIn,
  pageUrl,
  startOn,
  starterWorkspace,
} from './content-helpers.js';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describeEachDatabase('workspaces ($name)', (target) => {
  let ctx: ContentServer;
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    ctx = await startOn(target, { env: { PUBLIC_URL: 'https://docs.example.com' } });
    server = ctx.server;
    owner = await registerUser(server);
  });
  afterAll(() => ctx.cleanup());

  const as = (user: TestUser) => ({
    get: (p: string) => server.request('GET', p, { token: user.token }),
    post: (p: string, body: unknown) => server.request('POST', p, { token: user.token, body }),
    del: (p: string) => server.request('DELETE', p, { token: user.token }),
  });
  const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

  it('gives every new user a "Docs" workspace with a published welcome page, on disk and in git', async () => {
    const list = await as(owner).get('/api/v1/workspaces');
    expect(list.status).toBe(200);
    expect(list.body.next_cursor).toBeNull();
    expect(list.body.data).toHaveLength(1);
    const docs = list.body.data[0];
    // The API's fields (later features may add more, such as sync state).
    expect(docs).toMatchObject({
      id: expect.stringMatching(ULID),
      name: 'Docs',
      slug: `${owner.handle}-docs`,
      git_remote: null,
      git_branch: 'main',
      org_handle: owner.handle,
      role: 'superadmin',
      sync_status: 'idle',
      last_sync_at: null,
      last_error: null,
      public_site: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      webhook_secret: expect.stringMatching(/^[\w-]{32,}$/),
      webhook_url: `https://docs.example.com/api/git/webhook/${docs.id}`,
    });
    const welcome = await as(owner).get(pageUrl(docs.slug, 'index.md'));
    expect(welcome.status).toBe(200);
    expect(welcome.body).toMatchObject({ title: 'Welcome to Folio', status: 'published' });
    expect(welcome.body.content).toContain('# Welcome to Folio');
    expect(fs.readFileSync(fileIn(server, docs.id, '.git/HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
    expect(fs.readFileSync(fileIn(server, docs.id, '.gitignore'), 'utf8')).toContain('.folio/');
    const meta = JSON.parse(fs.readFileSync(workspaceMetaFile(server.dataDir, docs.id), 'utf8'));
    expect(meta).toMatchObject({
      id: docs.id,
      slug: docs.slug,
      name: 'Docs',
      org_handle: owner.handle,
      git_branch: 'main',
      deleted_at: null,
    });
  });

  it('creates a workspace for the Super Admin, with its own repository and branch', async () => {
    const slug = unique('handbook');
    const res = await as(owner).post('/api/v1/workspaces', {
      name: 'Handbook',
      slug,
      git_branch: 'docs/live',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Handbook',
      slug,
      git_branch: 'docs/live',
      role: 'superadmin',
      org_handle: owner.handle,
    });
    expect(fs.readFileSync(fileIn(server, res.body.id, '.git/HEAD'), 'utf8')).toBe(
      'ref: refs/heads/docs/live\n',
    );
    expect((await as(owner).get(`/api/v1/workspaces/${res.body.id}`)).body.slug).toBe(slug);
    expect((await as(owner).get(`/api/v1/workspaces/${slug}`)).body.id).toBe(res.body.id);
    // Named by handle, the caller's own organization works too.
    const byOrg = await as(owner).post('/api/v1/workspaces', {
      name: 'By org',
      slug: unique('by-org'),
      org: owner.handle,
    });
    expect(byOrg.status).toBe(201);
    // A new workspace starts empty.
    const tree = await as(owner).get(`/api/v1/content/${slug}/tree`);
    expect(tree.body).toEqual({ tree: [] });
  });

  it('validates the request and refuses a taken slug with 409', async () => {
    const cases: Array<[unknown, string]> = [
      [{ slug: unique('x') }, 'name'],
      [{ name: 'No slug' }, 'slug'],
      [{ name: 'Bad', slug: 'Has Spaces' }, 'slug'],
      [{ name: 'Bad', slug: '-leading' }, 'slug'],
      [{ name: 'Bad', slug: 'a'.repeat(65) }, 'slug'],
      [{ name: 'Bad', slug: unique('ok'), git_branch: 'bad..branch' }, 'git_branch'],
      [{ name: 'Bad', slug: unique('ok'), git_remote: 'ext::sh -c evil' }, 'git_remote'],
    ];
    for (const [body, field] of cases) {
      const res = await as(owner).post('/api/v1/workspaces', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field } });
    }
    const slug = unique('dup');
    expect((await as(owner).post('/api/v1/workspaces', { name: 'One', slug })).status).toBe(201);
    const dup = await as(owner).post('/api/v1/workspaces', { name: 'Two', slug });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('CONFLICT');
  });

  it("lets only the organization's Super Admin create or delete, and lists by membership", async () => {
    const docs = await starterWorkspace(server, owner);
    const admin = await registerUser(server);
    const viewer = await registerUser(server);
    await addMember(server, docs.id, admin, 'admin');
    await addMember(server, docs.id, viewer, 'viewer');

    // Another organization's handle: 403, whatever the caller's own rights.
    const foreign = await as(admin).post('/api/v1/workspaces', {
      name: 'Sneaky',
      slug: unique('sneaky'),
      org: owner.handle,
    });
    expect(foreign.status).toBe(403);
    expect(
      (await as(admin).post('/api/v1/workspaces', { name: 'X', slug: unique('x'), org: 'no-such-org' }))
        .status,
    ).toBe(403);
    // A workspace admin is not a Super Admin: deleting the workspace is refused.
    expect((await as(admin).del(`/api/v1/workspaces/${docs.id}`)).status).toBe(403);

    const viewerList = await as(viewer).get('/api/v1/workspaces');
    const seen = viewerList.body.data.find((w: { id: string }) => w.id === docs.id);
    expect(seen).toMatchObject({ role: 'viewer' });
    expect(seen).not.toHaveProperty('webhook_secret');
    expect(seen).not.toHaveProperty('webhook_url');
    expect((await as(admin).get(`/api/v1/workspaces/${docs.id}`)).body).toHaveProperty('webhook_secret');

    const outsider = await registerUser(server);
    expect((await as(outsider).get(`/api/v1/workspaces/${docs.id}`)).status).toBe(404);
    expect(
      (await as(outsider).get('/api/v1/workspaces')).body.data.map((w: { id: string }) => w.id),
    ).not.toContain(docs.id);
    expect((await server.request('GET', '/api/v1/workspaces')).status).toBe(401);
  });

  it('pages through the list with limit and cursor', async () => {
    const user = await registerUser(server);
    for (let i = 0; i < 3; i++)
      await as(user).post('/api/v1/workspaces', { name: `W${i}`, slug: unique(`page${i}`) });
    const all = (await as(user).get('/api/v1/workspaces?limit=100')).body.data.map(
      (w: { id: string }) => w.id,
    );
    expect(all).toHaveLength(4);
    const collected: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await as(user).get(`/api/v1/workspaces?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.body.data.length).toBeLessThanOrEqual(3);
      collected.push(...res.body.data.map((w: { id: string }) => w.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(collected).toEqual(all);
    expect((await as(user).get('/api/v1/workspaces?limit=0')).status).toBe(400);
    expect((await as(user).get('/api/v1/workspaces?cursor=bogus')).body.details.field).toBe('cursor');
  });

  it('soft-deletes: 404 everywhere afterwards, files kept', async () => {
    const slug = unique('doomed');
    const ws = (await as(owner).post('/api/v1/workspaces', { name: 'Doomed', slug })).body;
    await as(owner).post(pageUrl(slug, 'kept.md'), { title: 'Kept' });
    expect((await as(owner).del(`/api/v1/workspaces/${slug}`)).status).toBe(204);
    expect((await as(owner).get(`/api/v1/workspaces/${ws.id}`)).status).toBe(404);
    expect((await as(owner).get(pageUrl(slug, 'kept.md'))).status).toBe(404);
    expect((await as(owner).get(`/api/v1/content/${slug}/tree`)).status).toBe(404);
    expect((await as(owner).del(`/api/v1/workspaces/${ws.id}`)).status).toBe(404);
    const list = (await as(owner).get('/api/v1/workspaces?limit=100')).body.data.map(
      (w: { id: string }) => w.id,
    );
    expect(list).not.toContain(ws.id);
    expect(fs.existsSync(fileIn(server, ws.id, 'kept.md'))).toBe(true);
    const meta = JSON.parse(fs.readFileSync(workspaceMetaFile(server.dataDir, ws.id), 'utf8'));
    expect(meta.deleted_at).toEqual(expect.any(String));
  });
});
