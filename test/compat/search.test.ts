/**
 * Layout B's search through real HTTP, on both databases (FTS5 and tsvector): parameters
 * `q, workspace, tag, limit`, results with `page_id, title, path, score, snippet` plus
 * `total, query, took_ms, has_more`, confined to a workspace the caller can read; pages
 * written through the current layout are found.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { expectDeprecated, startOn } from './compat-helpers.js';

describeEachDatabase('Layout B search ($name)', (target) => {
  let server: TestServer;
  let cleanup: () => Promise<void>;
  let owner: TestUser;
  let ws: { id: string; slug: string };

  beforeAll(async () => {
    ({ server, cleanup } = await startOn(target));
    owner = await registerUser(server);
    ws = await firstWorkspace(server, owner);
    for (const [name, tags] of [
      ['one', ['ops']],
      ['two', ['ops']],
      ['three', ['dev']],
    ] as const) {
      const res = await server.request('POST', `/api/v1/content/${ws.slug}/${name}.md`, {
        token: owner.token,
        body: {
          title: `Kubernetes ${name}`,
          body: `Deploying kubernetes clusters, part ${name}.`,
          tags: [...tags],
        },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => cleanup?.());

  it('searches one workspace with has_more and took_ms', async () => {
    const res = await server.request('GET', `/api/v1/search?q=kubernetes&workspace=${ws.slug}&limit=2`, {
      token: owner.token,
    });
    expect(res.status).toBe(200);
    expectDeprecated(res, `/api/v1/workspaces/${ws.slug}/search`);
    expect(Object.keys(res.body).sort()).toEqual(['has_more', 'query', 'results', 'took_ms', 'total']);
    expect(res.body).toMatchObject({ query: 'kubernetes', total: 3, has_more: true });
    expect(res.body.took_ms).toEqual(expect.any(Number));
    expect(res.body.results).toHaveLength(2);
    expect(Object.keys(res.body.results[0]).sort()).toEqual(['page_id', 'path', 'score', 'snippet', 'title']);

    const all = await server.request('GET', `/api/v1/search?q=kubernetes&workspace=${ws.id}`, {
      token: owner.token,
    });
    expect(all.body).toMatchObject({ total: 3, has_more: false });
  });

  it('filters by tag', async () => {
    const res = await server.request('GET', `/api/v1/search?q=kubernetes&workspace=${ws.slug}&tag=dev`, {
      token: owner.token,
    });
    expect(res.body.results.map((r: { path: string }) => r.path)).toEqual(['three.md']);
    expect(res.body).toMatchObject({ total: 1, has_more: false });
  });

  it('needs a workspace the caller can read', async () => {
    const missing = await server.request('GET', '/api/v1/search?q=kubernetes', { token: owner.token });
    expect(missing.status).toBe(400);
    expect(missing.body.details.field).toBe('workspace');
    const stranger = await registerUser(server);
    const refused = await server.request('GET', `/api/v1/search?q=kubernetes&workspace=${ws.slug}`, {
      token: stranger.token,
    });
    expect(refused.status).toBe(404);
  });
});
