/**
 * Layout B's list pagination on the current lists through real HTTP: with `Folio-Layout: B`
 * a list answers `{ data, next_cursor, has_more }`, `has_more` true exactly while there is a
 * next cursor, 20 items by default (where the current default is 50) and at most 100 (a
 * larger limit is a problem-details 400); without the header the lists are unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { expectCurrent, expectDeprecated } from './compat-helpers.js';

const B = { 'Folio-Layout': 'B' };
const COMMENTS = 25;

describe('Layout B list pagination', () => {
  let server: TestServer;
  let owner: TestUser;
  let ws: { id: string; slug: string };
  const get = (path: string, headers: Record<string, string> = {}) =>
    server.request('GET', path, { token: owner.token, headers });

  beforeAll(async () => {
    server = await startServer({ rateLimits: { contentWrite: { limit: 100_000 } } });
    owner = await registerUser(server);
    ws = await firstWorkspace(server, owner);
    const page = await server.request('POST', `/api/v1/content/${ws.slug}/notes.md`, {
      token: owner.token,
      body: { title: 'Notes' },
    });
    expect(page.status).toBe(201);
    for (let i = 0; i < COMMENTS; i += 1) {
      const comment = await server.request('POST', `/api/v1/workspaces/${ws.id}/comments`, {
        token: owner.token,
        body: { page: 'notes.md', body: `Comment ${i}` },
      });
      expect(comment.status).toBe(201);
    }
  });
  afterAll(async () => server?.close());

  it('pages comments by 20 by default, has_more true until the last page', async () => {
    const path = `/api/v1/workspaces/${ws.id}/comments`;
    const first = await get(path, B);
    expect(first.status).toBe(200);
    expectDeprecated(first, path);
    expect(Object.keys(first.body)).toEqual(['data', 'next_cursor', 'has_more']);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.has_more).toBe(true);
    expect(first.body.next_cursor).toEqual(expect.any(String));

    const second = await get(`${path}?cursor=${encodeURIComponent(first.body.next_cursor)}`, B);
    expect(second.body.data).toHaveLength(COMMENTS - 20);
    expect(second.body).toMatchObject({ next_cursor: null, has_more: false });

    // Without the header: the current default (50) and shape.
    const current = await get(path);
    expectCurrent(current);
    expect(Object.keys(current.body)).toEqual(['data', 'next_cursor']);
    expect(current.body.data).toHaveLength(COMMENTS);
  });

  it('follows next_cursor through the activity feed with an explicit limit', async () => {
    const path = `/api/v1/workspaces/${ws.id}/activity`;
    const all = await get(`${path}?limit=100`);
    expect(all.body).not.toHaveProperty('has_more');
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 10; pages += 1) {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await get(`${path}?limit=7${query}`, B);
      expect(res.status).toBe(200);
      expect(res.body.has_more).toBe(res.body.next_cursor !== null);
      seen.push(...res.body.data.map((entry: { id: string }) => entry.id));
      cursor = res.body.next_cursor;
      if (!res.body.has_more) break;
    }
    expect(seen).toEqual(all.body.data.map((entry: { id: string }) => entry.id));
    expect(seen.length).toBeGreaterThan(COMMENTS);
  });

  it('refuses a limit above 100 with problem details, and adds has_more to unpaged lists', async () => {
    const path = `/api/v1/workspaces/${ws.id}/comments`;
    const tooMany = await get(`${path}?limit=101`, B);
    expect(tooMany.status).toBe(400);
    expectDeprecated(tooMany, path);
    expect(tooMany.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(tooMany.body).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });

    const keys = await get('/api/v1/api-keys', B);
    expect(keys.status).toBe(200);
    expect(keys.body).toMatchObject({ next_cursor: null, has_more: false });
  });
});
