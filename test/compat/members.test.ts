/**
 * Layout C's members routes through real HTTP, on both databases: the list with
 * `Folio-Layout: C` (offset pagination, admins only) while the current path keeps its
 * directory, a role change and a removal by `/members/:user_id`, each visible through
 * the current `/admin/members` list.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { expectCurrent, expectDeprecated, startOn } from './compat-helpers.js';

describeEachDatabase('Layout C members ($name)', (target) => {
  let server: TestServer;
  let cleanup: () => Promise<void>;
  let owner: TestUser;
  let member: TestUser;
  let ws: { id: string; slug: string };
  const C = { 'Folio-Layout': 'C' };

  beforeAll(async () => {
    ({ server, cleanup } = await startOn(target));
    owner = await registerUser(server);
    member = await registerUser(server);
    ws = await firstWorkspace(server, owner);
    const link = await server.request('POST', `/api/v1/workspaces/${ws.id}/share-links`, {
      token: owner.token,
      body: { role: 'editor' },
    });
    expect(link.status).toBe(201);
    const joined = await server.request('POST', `/api/v1/share-links/${link.body.token}/use`, {
      token: member.token,
    });
    expect(joined.status).toBeLessThan(300);
  });
  afterAll(async () => cleanup?.());

  it('lists members the Layout C way only when asked, with offset pagination', async () => {
    const current = await server.request('GET', `/api/v1/workspaces/${ws.id}/members`, {
      token: owner.token,
    });
    expect(current.status).toBe(200);
    expectCurrent(current);
    expect(current.body.members).toBeUndefined();

    const older = await server.request('GET', `/api/v1/workspaces/${ws.id}/members`, {
      token: owner.token,
      headers: C,
    });
    expect(older.status).toBe(200);
    expectDeprecated(older, `/api/v1/workspaces/${ws.id}/admin/members`);
    expect(older.body).toMatchObject({ total: 2, limit: 100, offset: 0 });
    expect(older.body.members.map((m: { user_id: string }) => m.user_id).sort()).toEqual(
      [owner.id, member.id].sort(),
    );
    const second = await server.request('GET', `/api/v1/workspaces/${ws.id}/members?limit=1&offset=1`, {
      token: owner.token,
      headers: C,
    });
    expect(second.body.members).toEqual([older.body.members[1]]);

    // An editor may not list members this way: Layout C's 403 in its nested error.
    const refused = await server.request('GET', `/api/v1/workspaces/${ws.id}/members`, {
      token: member.token,
      headers: C,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
  });

  it('changes a role and removes a member, visible through the current layout', async () => {
    const url = `/api/v1/workspaces/${ws.id}/members/${member.id}`;
    const changed = await server.request('PUT', `${url}/role`, {
      token: owner.token,
      body: { role: 'viewer' },
    });
    expect(changed.status).toBe(200);
    expectDeprecated(changed, `/api/v1/workspaces/${ws.id}/admin/members/${member.id}/role`);
    const listed = async () =>
      (await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/members`, { token: owner.token })).body
        .data as Array<{
        user_id: string;
        role: string;
      }>;
    expect((await listed()).find((m) => m.user_id === member.id)?.role).toBe('viewer');

    const bad = await server.request('PUT', `${url}/role`, {
      token: owner.token,
      body: { role: 'overlord' },
    });
    expect(bad.status).toBe(400);

    const removed = await server.request('DELETE', url, { token: owner.token });
    expect(removed.status).toBe(204);
    expectDeprecated(removed, `/api/v1/workspaces/${ws.id}/admin/members/${member.id}`);
    expect((await listed()).some((m) => m.user_id === member.id)).toBe(false);
    const gone = await server.request('GET', `/api/v1/workspaces/${ws.id}/pages`, { token: member.token });
    expect(gone.status).toBe(404);
  });
});
