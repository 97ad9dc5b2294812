import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { firstWorkspace, joinWithLink, startCollab, WsClient, wsCookie } from './collab-helpers.js';

describeEachDatabase('members, settings and onboarding ($name)', (target) => {
  let ctx: Awaited<ReturnType<typeof startCollab>>;
  let server: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  let editor: TestUser;
  let ws: { id: string; slug: string };

  beforeAll(async () => {
    ctx = await startCollab(target);
    server = ctx.server;
    owner = await registerUser(server);
    ws = await firstWorkspace(server, owner);
    admin = await registerUser(server);
    editor = await registerUser(server);
    await joinWithLink(server, owner, ws.id, admin, 'admin');
    await joinWithLink(server, owner, ws.id, editor, 'editor');
  });
  afterAll(() => ctx.cleanup());

  const members = (token = owner.token) =>
    server.request('GET', `/api/v1/workspaces/${ws.id}/admin/members`, { token });
  const setRole = (userId: string, role: string, token = owner.token) =>
    server.request('PUT', `/api/v1/workspaces/${ws.id}/admin/members/${userId}/role`, {
      token,
      body: { role },
    });
  const remove = (userId: string, token = owner.token) =>
    server.request('DELETE', `/api/v1/workspaces/${ws.id}/admin/members/${userId}`, { token });

  it('lists members with their roles (admins only)', async () => {
    const res = await members();
    expect(res.status).toBe(200);
    expect(res.body.next_cursor).toBeNull();
    const byId = Object.fromEntries(res.body.data.map((m: { user_id: string }) => [m.user_id, m]));
    expect(byId[owner.id]).toMatchObject({ role: 'superadmin', email: owner.email, handle: owner.handle });
    expect(byId[admin.id]).toMatchObject({ role: 'admin' });
    expect(byId[editor.id]).toMatchObject({ role: 'editor', name: expect.any(String) });
    expect(Date.parse(byId[editor.id].joined_at)).not.toBeNaN();
    expect((await members(editor.token)).status).toBe(403);
    expect((await members((await registerUser(server)).token)).status).toBe(404);

    const page = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/members?limit=1`, {
      token: owner.token,
    });
    expect(page.body.data).toHaveLength(1);
    expect(page.body.next_cursor).toEqual(expect.any(String));
  });

  it('changes roles within the caller’s own rank and records it', async () => {
    const demoted = await setRole(editor.id, 'commenter', admin.token);
    expect(demoted.status).toBe(200);
    expect(demoted.body).toMatchObject({ user_id: editor.id, role: 'commenter' });
    const write = await server.request('POST', `/api/v1/content/${ws.slug}/by-demoted`, {
      token: editor.token,
      body: { title: 'No' },
    });
    expect(write.status).toBe(403);

    // An admin can neither grant Super Admin nor touch one.
    const grant = await setRole(editor.id, 'superadmin', admin.token);
    expect(grant.status).toBe(403);
    expect(grant.body.message).toMatch(/above your own/);
    expect((await setRole(owner.id, 'viewer', admin.token)).status).toBe(403);
    expect((await setRole(editor.id, 'editor', editor.token)).status).toBe(403);
    expect((await setRole(editor.id, 'owner')).status).toBe(400);
    expect((await setRole('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'viewer')).status).toBe(404);
    expect((await setRole(editor.id, 'editor')).status).toBe(200);

    const activity = await server.request(
      'GET',
      `/api/v1/workspaces/${ws.id}/activity?action=member_role_changed`,
      {
        token: owner.token,
      },
    );
    expect(activity.body.data[0]).toMatchObject({
      actor: owner.id,
      details: { user_id: editor.id, from: 'commenter', to: 'editor' },
    });
  });

  it('never demotes the organization’s last Super Admin', async () => {
    const last = await setRole(owner.id, 'admin');
    expect(last.status).toBe(409);
    expect(last.body).toMatchObject({ error: 'CONFLICT' });
    expect(last.body.message).toMatch(/last Super Admin/);

    // With a second Super Admin, the first may step down.
    expect((await setRole(admin.id, 'superadmin')).body.role).toBe('superadmin');
    const stepDown = await setRole(owner.id, 'admin', admin.token);
    expect(stepDown.status).toBe(200);
    expect(stepDown.body.role).toBe('admin');
    expect((await setRole(admin.id, 'editor', admin.token)).status).toBe(409);
    // Restore for the tests that follow.
    expect((await setRole(owner.id, 'superadmin', admin.token)).status).toBe(200);
  });

  it('removes a member at once; their comments and share links stay', async () => {
    const remover = await registerUser(server);
    await joinWithLink(server, owner, ws.id, remover, 'admin');
    const leaver = await registerUser(server);
    await joinWithLink(server, owner, ws.id, leaver, 'admin');
    const link = await server.request('POST', `/api/v1/workspaces/${ws.id}/share-links`, {
      token: leaver.token,
      body: { role: 'viewer' },
    });
    expect(link.status).toBe(201);
    expect((await setRole(leaver.id, 'editor')).status).toBe(200);
    const page = await server.request('POST', `/api/v1/content/${ws.slug}/leaving.md`, {
      token: leaver.token,
      body: { title: 'Leaving' },
    });
    expect(page.status).toBe(201);
    const comment = await server.request('POST', `/api/v1/workspaces/${ws.id}/comments`, {
      token: leaver.token,
      body: { page: 'leaving.md', body: 'Goodbye' },
    });
    expect(comment.status).toBe(201);
    const socket = await WsClient.connect(server, (await wsCookie(server, leaver)).pair);
    try {
      expect((await socket.subscribe(ws.id)).type).toBe('subscribed');

      // Members without the admin role get 403, strangers 404 (existence does not leak).
      const refused = await remove(leaver.id, editor.token);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('FORBIDDEN');
      const stranger = await remove(leaver.id, (await registerUser(server)).token);
      expect(stranger.status).toBe(404);
      expect(stranger.body.error).toBe('NOT_FOUND');

      const removed = await remove(leaver.id, remover.token);
      expect(removed.status).toBe(204);
      expect(removed.text).toBe('');

      // The very next request is refused, and the stream ends for that workspace.
      const read = await server.request('GET', `/api/v1/workspaces/${ws.id}`, { token: leaver.token });
      expect(read.status).toBe(404);
      const tree = await server.request('GET', `/api/v1/content/${ws.slug}/tree`, { token: leaver.token });
      expect(tree.status).toBe(404);
      expect(await socket.waitFor((m) => m.type === 'unsubscribed')).toEqual({
        type: 'unsubscribed',
        workspace_id: ws.id,
        reason: 'access_revoked',
      });
      server.folio.events.emit('page-created', { workspace_id: ws.id, path: 'after.md', actor: null });
      await socket.roundTrip();
      expect(socket.messages.some((m) => m.path === 'after.md')).toBe(false);
      expect((await socket.subscribe(ws.id)).error).toBe('NOT_FOUND');
    } finally {
      await socket.close();
    }

    const list = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/members?limit=100`, {
      token: owner.token,
    });
    expect(list.body.data.map((m: { user_id: string }) => m.user_id)).not.toContain(leaver.id);
    expect((await remove(leaver.id)).status).toBe(404);

    const comments = await server.request('GET', `/api/v1/workspaces/${ws.id}/comments?page=leaving.md`, {
      token: owner.token,
    });
    expect(comments.body.data.map((c: { id: string }) => c.id)).toContain(comment.body.id);
    const links = await server.request('GET', `/api/v1/workspaces/${ws.id}/share-links`, {
      token: owner.token,
    });
    expect(links.body.data.map((l: { id: string }) => l.id)).toContain(link.body.id);

    const activity = await server.request(
      'GET',
      `/api/v1/workspaces/${ws.id}/activity?action=member_removed`,
      {
        token: owner.token,
      },
    );
    expect(activity.body.data[0]).toMatchObject({
      action: 'member_removed',
      actor: remover.id,
      details: { user_id: leaver.id, role: 'editor' },
    });
  });

  it('filters the activity feed by the person who acted, alone or with an action', async () => {
    const feed = async (query: string) =>
      (await server.request('GET', `/api/v1/workspaces/${ws.id}/activity?${query}`, { token: owner.token }))
        .body.data as { actor: string | null; action: string }[];
    const byOwner = await feed(`actor=${owner.id}&limit=100`);
    expect(byOwner.length).toBeGreaterThan(0);
    expect(byOwner.every((entry) => entry.actor === owner.id)).toBe(true);
    const everyone = await feed('limit=100');
    expect(everyone.some((entry) => entry.actor !== owner.id)).toBe(true);
    const roleChanges = await feed(`actor=${owner.id}&action=member_role_changed`);
    expect(roleChanges.every((e) => e.actor === owner.id && e.action === 'member_role_changed')).toBe(true);
    expect(await feed('actor=nobody-at-all')).toEqual([]);
  });

  it('never removes a Super Admin or a non-member', async () => {
    // The role test left `admin` a second Super Admin: make the owner the last one again.
    expect((await setRole(admin.id, 'admin')).body.role).toBe('admin');
    const last = await remove(owner.id);
    expect(last.status).toBe(409);
    expect(last.body).toMatchObject({ error: 'CONFLICT' });
    expect(last.body.message).toMatch(/last Super Admin/);
    // An admin cannot touch a Super Admin at all.
    expect((await remove(owner.id, admin.token)).status).toBe(403);

    // Another Super Admin holds the role through the organization: demote first.
    expect((await setRole(admin.id, 'superadmin')).body.role).toBe('superadmin');
    const other = await remove(admin.id);
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('CONFLICT');
    expect(other.body.message).toMatch(/change their role/);

    const unknown = await remove('01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('NOT_FOUND');
    const outsider = await registerUser(server);
    expect((await remove(outsider.id)).status).toBe(404);
    const members = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/members?limit=100`, {
      token: owner.token,
    });
    const roles = Object.fromEntries(
      members.body.data.map((m: { user_id: string; role: string }) => [m.user_id, m.role]),
    );
    expect(roles[owner.id]).toBe('superadmin');
    expect(roles[admin.id]).toBe('superadmin');
  });

  it('reads and updates settings; themes are checked; public_site shows on the workspace', async () => {
    const initial = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/settings`, {
      token: owner.token,
    });
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({
      public_site: false,
      theme: 'default',
      site_title: 'Docs',
      site_description: '',
      frontmatter_mode: 'lenient',
      default_version: null,
      required_approvals: 0,
      edit_url: null,
      show_last_updated_author: true,
      nav_source: 'auto',
      paste_remote_images: true,
      default_page_status: 'draft',
      suggested_edit_url: null,
    });
    const put = (body: unknown, token = owner.token) =>
      server.request('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, { token, body });
    const updated = await put({ theme: 'forest', public_site: true });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ theme: 'forest', public_site: true, site_title: 'Docs' });
    const partial = await put({ site_title: 'Handbook' });
    expect(partial.body).toMatchObject({ theme: 'forest', site_title: 'Handbook' });

    const badTheme = await put({ theme: 'neon' });
    expect(badTheme.status).toBe(400);
    expect(badTheme.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'theme' } });
    expect((await put({ colour: 'red' })).status).toBe(400);
    expect((await put({ public_site: 'yes' })).status).toBe(400);

    const workspace = await server.request('GET', `/api/v1/workspaces/${ws.id}`, { token: owner.token });
    expect(workspace.body.public_site).toBe(true);

    const editorRead = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/settings`, {
      token: editor.token,
    });
    expect(editorRead.status).toBe(403);
    expect((await put({ theme: 'dark' }, editor.token)).status).toBe(403);
    expect((await put({ theme: 'dark' }, admin.token)).status).toBe(200);

    const activity = await server.request(
      'GET',
      `/api/v1/workspaces/${ws.id}/activity?action=settings_updated`,
      {
        token: owner.token,
      },
    );
    expect(activity.body.data[0].details.changed).toEqual({ theme: 'dark' });
  });

  it('keeps a per-user onboarding checklist that PATCH merges', async () => {
    const fresh = await registerUser(server);
    const initial = await server.request('GET', '/api/v1/users/me/onboarding', { token: fresh.token });
    expect(initial.status).toBe(200);
    expect(initial.body.steps).toEqual({
      create_page: false,
      invite_member: false,
      connect_git: false,
      publish_site: false,
      create_api_key: false,
    });
    expect(initial.body.dismissed).toBe(false);
    const patch = (body: unknown) =>
      server.request('PATCH', '/api/v1/users/me/onboarding', { token: fresh.token, body });
    expect((await patch({ steps: { create_page: true } })).body.steps.create_page).toBe(true);
    const merged = await patch({ steps: { publish_site: true }, dismissed: true });
    expect(merged.body.steps).toMatchObject({ create_page: true, publish_site: true, connect_git: false });
    expect(merged.body.dismissed).toBe(true);
    expect((await patch({ steps: { create_page: 'yes' } })).status).toBe(400);
    expect((await patch({ steps: { fly: true } })).status).toBe(400);

    // Detected from what the user did.
    await server.request('POST', '/api/v1/api-keys', { token: fresh.token, body: { name: 'ci' } });
    const detected = await server.request('GET', '/api/v1/users/me/onboarding', { token: fresh.token });
    expect(detected.body.steps.create_api_key).toBe(true);
    // Per user: someone else's list is untouched.
    const other = await server.request('GET', '/api/v1/users/me/onboarding', { token: editor.token });
    expect(other.body.steps.create_page).toBe(false);
    expect((await server.request('GET', '/api/v1/users/me/onboarding')).status).toBe(401);
  });
});
