import { afterAll, beforeAll, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { firstWorkspace, startCollab } from './collab-helpers.js';

describeEachDatabase('share links ($name)', (target) => {
  const clock = manualClock(new Date());
  let ctx: Awaited<ReturnType<typeof startCollab>>;
  let server: TestServer;
  let owner: TestUser;
  let ws: { id: string; slug: string };

  beforeAll(async () => {
    ctx = await startCollab(target, { clock });
    server = ctx.server;
    owner = await registerUser(server);
    ws = await firstWorkspace(server, owner);
  });
  afterAll(() => ctx.cleanup());

  const createLink = (body: unknown, token = owner.token) =>
    server.request('POST', `/api/v1/workspaces/${ws.id}/share-links`, { token, body });
  const use = (token: string, user: TestUser) =>
    server.request('POST', `/api/v1/share-links/${token}/use`, { token: user.token });

  it('joins a viewer, who can read but not write, and stops after max_uses', async () => {
    const link = await createLink({ role: 'viewer', max_uses: 2 });
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({ role: 'viewer', max_uses: 2, uses: 0, expires_at: null });
    expect(link.body.url).toContain(link.body.token);

    const [a, b, c] = [await registerUser(server), await registerUser(server), await registerUser(server)];
    const readBefore = await server.request('GET', `/api/v1/content/${ws.slug}/index.md`, { token: a.token });
    expect(readBefore.status).toBe(404);

    const joined = await use(link.body.token, a);
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ workspace_id: ws.id, role: 'viewer' });
    expect(
      (await server.request('GET', `/api/v1/content/${ws.slug}/index.md`, { token: a.token })).status,
    ).toBe(200);
    const write = await server.request('POST', `/api/v1/content/${ws.slug}/by-viewer`, {
      token: a.token,
      body: { title: 'No' },
    });
    expect(write.status).toBe(403);
    expect(write.body.error).toBe('FORBIDDEN');

    // Using it again as a member spends nothing.
    expect((await use(link.body.token, a)).status).toBe(200);
    expect((await use(link.body.token, b)).status).toBe(200);
    const exhausted = await use(link.body.token, c);
    expect(exhausted.status).toBe(400);
    expect(exhausted.body.error).toBe('VALIDATION_ERROR');

    const listed = await server.request('GET', `/api/v1/workspaces/${ws.id}/share-links`, {
      token: owner.token,
    });
    const shown = listed.body.data.find((l: { id: string }) => l.id === link.body.id);
    expect(shown).toMatchObject({ uses: 2, max_uses: 2 });
    // The token is shown once, and stored only hashed.
    expect(listed.text).not.toContain(link.body.token);
    const row = await server.folio.store.db
      .selectFrom('share_links')
      .selectAll()
      .where('id', '=', link.body.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(link.body.token);
  });

  it('never lets concurrent uses exceed max_uses', async () => {
    const link = await createLink({ role: 'commenter', max_uses: 3 });
    const users = await Promise.all(Array.from({ length: 8 }, () => registerUser(server)));
    const results = await Promise.all(users.map((u) => use(link.body.token, u)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 400)).toHaveLength(5);
    const members = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/members?limit=100`, {
      token: owner.token,
    });
    const joined = users.filter((u) =>
      members.body.data.some((m: { user_id: string }) => m.user_id === u.id),
    );
    expect(joined).toHaveLength(3);
  });

  it('keeps a higher role, and refuses revoked (404) and expired (400) links', async () => {
    const editor = await registerUser(server);
    const editorLink = await createLink({ role: 'editor' });
    expect((await use(editorLink.body.token, editor)).body.role).toBe('editor');
    const viewerLink = await createLink({ role: 'viewer' });
    const kept = await use(viewerLink.body.token, editor);
    expect(kept.status).toBe(200);
    expect(kept.body.role).toBe('editor');

    const revoked = await createLink({ role: 'viewer' });
    const del = await server.request('DELETE', `/api/v1/workspaces/${ws.id}/share-links/${revoked.body.id}`, {
      token: owner.token,
    });
    expect(del.status).toBe(204);
    const late = await registerUser(server);
    expect((await use(revoked.body.token, late)).status).toBe(404);
    expect((await use('no-such-link', late)).status).toBe(404);

    const soon = new Date(clock.now().getTime() + 60_000).toISOString();
    const expiring = await createLink({ role: 'viewer', expires_at: soon });
    expect(expiring.status).toBe(201);
    clock.advance(60_000);
    const expired = await use(expiring.body.token, late);
    expect(expired.status).toBe(400);
    expect(expired.body.message).toMatch(/expired/);

    const past = await createLink({ role: 'viewer', expires_at: '2000-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.details.field).toBe('expires_at');
    expect((await createLink({ role: 'viewer', max_uses: 0 })).status).toBe(400);
    expect((await server.request('POST', `/api/v1/share-links/${expiring.body.token}/use`)).status).toBe(401);
  });

  it('only admins manage links, never above their own role; outsiders get 404', async () => {
    const admin = await registerUser(server);
    const adminLink = await createLink({ role: 'admin', max_uses: 1 });
    await use(adminLink.body.token, admin);
    expect((await createLink({ role: 'superadmin' }, admin.token)).status).toBe(403);
    expect((await createLink({ role: 'admin' }, admin.token)).status).toBe(201);

    const viewer = await registerUser(server);
    await use((await createLink({ role: 'viewer' })).body.token, viewer);
    expect((await createLink({ role: 'viewer' }, viewer.token)).status).toBe(403);
    const list = await server.request('GET', `/api/v1/workspaces/${ws.id}/share-links`, {
      token: viewer.token,
    });
    expect(list.status).toBe(403);
    const outsider = await registerUser(server);
    const hidden = await server.request('GET', `/api/v1/workspaces/${ws.id}/share-links`, {
      token: outsider.token,
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe('NOT_FOUND');
  });
});
