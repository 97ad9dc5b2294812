import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { addMember, type ContentServer, pageUrl, startOn, starterWorkspace } from './content-helpers.js';

interface Entry {
  id: string;
  action: string;
  path: string | null;
  actor: string | null;
  details: Record<string, unknown>;
  created_at: string;
}

describeEachDatabase('activity feed ($name)', (target) => {
  let ctx: ContentServer;
  let server: TestServer;
  let owner: TestUser;
  let ws: { id: string; slug: string };

  beforeAll(async () => {
    ctx = await startOn(target);
    server = ctx.server;
    owner = await registerUser(server);
    ws = await starterWorkspace(server, owner);
    const post = (p: string, body: unknown) =>
      server.request('POST', pageUrl(ws.slug, p), { token: owner.token, body });
    for (const n of [1, 2, 3, 4, 5]) await post(`p${n}.md`, { title: `P${n}` });
    const p1 = await server.request('GET', pageUrl(ws.slug, 'p1.md'), { token: owner.token });
    await server.request('PUT', pageUrl(ws.slug, 'p1.md'), {
      token: owner.token,
      body: { body: 'v2', lastKnownHash: p1.body.content_hash },
    });
    await server.request('PATCH', pageUrl(ws.slug, 'p1.md'), {
      token: owner.token,
      body: { new_path: 'renamed.md' },
    });
    await server.request('DELETE', pageUrl(ws.slug, 'p2.md'), { token: owner.token });
  });
  afterAll(() => ctx.cleanup());

  const feed = (query: string, token = owner.token) =>
    server.request('GET', `/api/v1/workspaces/${ws.id}/activity${query}`, { token });

  it('lists every change newest first, with actor and details', async () => {
    const res = await feed('?limit=100');
    expect(res.status).toBe(200);
    const data = res.body.data as Entry[];
    expect(res.body.next_cursor).toBeNull();
    expect(data.map((e) => `${e.action} ${e.path}`)).toEqual([
      'page_deleted p2.md',
      'page_moved renamed.md',
      'page_updated p1.md',
      'page_created p5.md',
      'page_created p4.md',
      'page_created p3.md',
      'page_created p2.md',
      'page_created p1.md',
      'page_created index.md',
    ]);
    expect(data[0]).toMatchObject({ actor: owner.id, details: { title: 'P2' } });
    expect(data[1]!.details).toMatchObject({ old_path: 'p1.md', new_path: 'renamed.md' });
    expect(data[8]).toMatchObject({ actor: null, details: { source: 'starter' } });
    expect(Object.keys(data[0]!).sort()).toEqual([
      'action',
      'actor',
      'actor_name',
      'created_at',
      'details',
      'id',
      'page_id',
      'path',
    ]);
  });

  it('pages with limit and cursor, without gaps or repeats', async () => {
    const all = ((await feed('?limit=100')).body.data as Entry[]).map((e) => e.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await feed(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...(res.body.data as Entry[]).map((e) => e.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(pages).toBe(5);
  });

  it('filters by action, one or several', async () => {
    const created = (await feed('?action=page_created&limit=3')).body;
    expect((created.data as Entry[]).every((e) => e.action === 'page_created')).toBe(true);
    expect(created.next_cursor).not.toBeNull();
    const rest = (await feed(`?action=page_created&cursor=${created.next_cursor}`)).body.data as Entry[];
    expect(rest.map((e) => e.path)).toEqual(['p2.md', 'p1.md', 'index.md']);
    const two = (await feed('?action=page_moved,page_deleted')).body.data as Entry[];
    expect(two.map((e) => e.action)).toEqual(['page_deleted', 'page_moved']);
  });

  it("follows one page's history across its move, and a deleted page's by its path", async () => {
    const moved = await server.request('GET', `/api/v1/workspaces/${ws.slug}/page-activity?page=renamed.md`, {
      token: owner.token,
    });
    expect((moved.body.data as Entry[]).map((e) => e.action)).toEqual([
      'page_moved',
      'page_updated',
      'page_created',
    ]);
    const byOldPath = await server.request('GET', `/api/v1/workspaces/${ws.slug}/page-activity?page=p1`, {
      token: owner.token,
    });
    expect(byOldPath.body.data).toEqual(moved.body.data);
    const deleted = await server.request('GET', `/api/v1/workspaces/${ws.slug}/page-activity?page=p2.md`, {
      token: owner.token,
    });
    expect((deleted.body.data as Entry[]).map((e) => e.action)).toEqual(['page_deleted', 'page_created']);
  });

  it('is readable by any member, refuses bad parameters with 400 and outsiders with 404', async () => {
    const viewer = await registerUser(server);
    await addMember(server, ws.id, viewer, 'viewer');
    expect((await feed('', viewer.token)).status).toBe(200);
    const outsider = await registerUser(server);
    expect((await feed('', outsider.token)).status).toBe(404);
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=abc', 'limit'],
      ['?cursor=not-a-cursor', 'cursor'],
    ]) {
      const res = await feed(query!);
      expect(res.status, query).toBe(400);
      expect(res.body.details.field).toBe(field);
    }
    const noPage = await server.request('GET', `/api/v1/workspaces/${ws.slug}/page-activity`, {
      token: owner.token,
    });
    expect(noPage.body.details.field).toBe('page');
    const badPage = await server.request('GET', `/api/v1/workspaces/${ws.slug}/page-activity?page=../x`, {
      token: owner.token,
    });
    expect(badPage.body.details.field).toBe('path');
  });
});
