/**
 * Layout C's pages by id through real HTTP, on both databases: C's list
 * parameters, offset pagination and item fields, create below a parent, read, update with
 * `content_hash`, delete; every change visible through the current content routes with the
 * same page_id, and the routes marked deprecated.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { expectDeprecated, startOn } from './compat-helpers.js';

const ITEM_FIELDS = [
  'id',
  'title',
  'slug',
  'description',
  'path',
  'tags',
  'published',
  'access',
  'created_at',
  'updated_at',
  'author_id',
].sort();

describeEachDatabase('Layout C pages by id ($name)', (target) => {
  let server: TestServer;
  let cleanup: () => Promise<void>;
  let owner: TestUser;
  let ws: { id: string; slug: string };
  const pages = () => `/api/v1/workspaces/${ws.id}/pages`;

  beforeAll(async () => {
    ({ server, cleanup } = await startOn(target));
    owner = await registerUser(server);
    ws = await firstWorkspace(server, owner);
  });
  afterAll(async () => cleanup?.());

  it('creates a page by id, which the current layout reads by path with the same page_id', async () => {
    const created = await server.request('POST', pages(), {
      token: owner.token,
      body: { title: 'Install Guide', content: '# Install\n', tags: ['setup'], published: true },
    });
    expect(created.status).toBe(201);
    expectDeprecated(created, `/api/v1/content/${ws.id}/`);
    expect(Object.keys(created.body).sort()).toEqual(
      [...ITEM_FIELDS, 'content', 'content_hash', 'parent_id'].sort(),
    );
    expect(created.body).toMatchObject({
      title: 'Install Guide',
      slug: 'install-guide',
      path: 'install-guide.md',
      tags: ['setup'],
      published: true,
      access: 'workspace',
      author_id: owner.id,
      content: '# Install\n',
    });
    expect(created.body.content_hash).toMatch(/^sha256:/);

    const current = await server.request('GET', `/api/v1/content/${ws.slug}/install-guide.md`, {
      token: owner.token,
    });
    expect(current.status).toBe(200);
    expect(current.body.page_id).toBe(created.body.id);
    expect(current.body.status).toBe('published');
    expect(current.headers.get('deprecation')).toBeNull();
  });

  it('creates below a parent and filters the list by parent_id, tag and published', async () => {
    const parent = await server.request('POST', pages(), {
      token: owner.token,
      body: { title: 'Guides', slug: 'guides' },
    });
    expect(parent.status).toBe(201);
    const child = await server.request('POST', pages(), {
      token: owner.token,
      body: { title: 'First steps', parent_id: parent.body.id, tags: ['intro'] },
    });
    expect(child.status).toBe(201);
    expect(child.body.path).toBe('guides/first-steps.md');
    expect(child.body.parent_id).toBe(parent.body.id);

    const children = await server.request('GET', `${pages()}?parent_id=${parent.body.id}`, {
      token: owner.token,
    });
    expect(children.status).toBe(200);
    expectDeprecated(children, `/api/v1/content/${ws.id}/`);
    expect(children.body).toMatchObject({ total: 1, limit: 100, offset: 0 });
    expect(children.body.pages.map((p: { id: string }) => p.id)).toEqual([child.body.id]);
    expect(Object.keys(children.body.pages[0]).sort()).toEqual(ITEM_FIELDS);

    const tagged = await server.request('GET', `${pages()}?tag=intro`, { token: owner.token });
    expect(tagged.body.pages.map((p: { id: string }) => p.id)).toEqual([child.body.id]);
    const published = await server.request('GET', `${pages()}?published=true`, { token: owner.token });
    expect(published.body.pages.every((p: { published: boolean }) => p.published)).toBe(true);
    expect(published.body.pages.some((p: { path: string }) => p.path === 'install-guide.md')).toBe(true);
  });

  it('pages the list by offset with the total', async () => {
    const all = await server.request('GET', pages(), { token: owner.token });
    expect(all.body.total).toBeGreaterThanOrEqual(3);
    const second = await server.request('GET', `${pages()}?limit=1&offset=1`, { token: owner.token });
    expect(second.body).toMatchObject({ total: all.body.total, limit: 1, offset: 1 });
    expect(second.body.pages.map((p: { id: string }) => p.id)).toEqual([all.body.pages[1].id]);
    const bad = await server.request('GET', `${pages()}?offset=-1`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('VALIDATION_ERROR');
  });

  it('updates with content_hash, refuses a stale one, and deletes by id', async () => {
    const created = await server.request('POST', pages(), {
      token: owner.token,
      body: { title: 'Edit me', content: 'one' },
    });
    const url = `${pages()}/${created.body.id}`;
    const read = await server.request('GET', url, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body.content).toBe('one');

    const updated = await server.request('PUT', url, {
      token: owner.token,
      body: { content: 'two', title: 'Edited', content_hash: read.body.content_hash },
    });
    expect(updated.status).toBe(200);
    expectDeprecated(updated, `/api/v1/content/${ws.id}/`);
    expect(updated.body).toMatchObject({ id: created.body.id, title: 'Edited', content: 'two' });
    const byPath = await server.request('GET', `/api/v1/content/${ws.slug}/edit-me.md`, {
      token: owner.token,
    });
    expect(byPath.body).toMatchObject({ page_id: created.body.id, title: 'Edited', content: 'two' });

    const missingHash = await server.request('PUT', url, { token: owner.token, body: { content: 'x' } });
    expect(missingHash.status).toBe(400);
    expect(missingHash.body.details.field).toBe('content_hash');

    // A stale hash: 409, and in Layout C's nested error with `provided_hash`.
    const stale = await server.request('PUT', url, {
      token: owner.token,
      headers: { 'Folio-Layout': 'C' },
      body: { content: 'three', content_hash: read.body.content_hash },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      error: {
        code: 'CONFLICT',
        message: expect.any(String),
        details: expect.objectContaining({
          current_hash: updated.body.content_hash,
          provided_hash: read.body.content_hash,
        }),
      },
    });

    const removed = await server.request('DELETE', url, { token: owner.token });
    expect(removed.status).toBe(204);
    expect((await server.request('GET', url, { token: owner.token })).status).toBe(404);
    const gone = await server.request('GET', `/api/v1/content/${ws.slug}/edit-me.md`, { token: owner.token });
    expect(gone.status).toBe(404);
  });

  it('answers 404 to a stranger and for an id from another workspace', async () => {
    const stranger = await registerUser(server);
    const list = await server.request('GET', pages(), { token: stranger.token });
    expect(list.status).toBe(404);
    const theirs = await firstWorkspace(server, stranger);
    const own = await server.request('GET', pages(), { token: owner.token });
    const elsewhere = await server.request(
      'GET',
      `/api/v1/workspaces/${theirs.id}/pages/${own.body.pages[0].id}`,
      {
        token: stranger.token,
      },
    );
    expect(elsewhere.status).toBe(404);
    const create = await server.request('POST', pages(), { token: stranger.token, body: { title: 'Nope' } });
    expect(create.status).toBe(404);
  });
});
