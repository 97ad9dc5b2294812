/**
 * The Cloud edition's GDPR endpoints through HTTP, on both databases: a user's data export
 * (its contents, no secrets, one a day), account deletion (personal data gone, pages and
 * comments kept and attributed to "Deleted user", the last Super Admin refused) and an
 * organization's export (every page of every workspace, members and roles).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, type TestWorkspace } from '../helpers/workspace-access.js';
import { firstWorkspace, joinWithLink } from '../collab/collab-helpers.js';
import { downloadZip, jsonOf, startCloud, unzip } from './cloud-helpers.js';

describeEachDatabase('GDPR: data export, account deletion, organization export ($name)', (target) => {
  let ctx: Awaited<ReturnType<typeof startCloud>>;
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let docs: TestWorkspace;
  let handbook: TestWorkspace;
  let aliceOrg: string;

  beforeAll(async () => {
    ctx = await startCloud(target);
    server = ctx.server;
    const owner = await registerUser(server); // the platform owner, whose account cannot be deleted
    alice = await registerUser(server, { name: 'Alice' });
    bob = await registerUser(server, { name: 'Bob' });
    outsider = await registerUser(server);
    docs = await firstWorkspace(server, alice);
    aliceOrg = (await server.request('GET', '/api/auth/me', { token: alice.token })).body.org.handle;
    // A second workspace is beyond the Free plan.
    const team = await server.request('PUT', `/api/v1/admin/orgs/${aliceOrg}/plan`, {
      token: owner.token,
      body: { plan: 'team' },
    });
    expect(team.status).toBe(200);
    handbook = await createWorkspace(server, alice, `handbook-${Date.now()}`);
    await joinWithLink(server, alice, docs.id, bob, 'editor');
  });
  afterAll(() => ctx.cleanup());

  it('exports everything held about the user, without secrets, once a day', async () => {
    const key = await server.request('POST', '/api/v1/api-keys', {
      token: alice.token,
      body: { name: 'CI key', scopes: ['read'] },
    });
    expect(key.status).toBe(201);
    await createPage(server, alice, docs, 'export-me.md', { title: 'Export me' });
    const comment = await server.request('POST', `/api/v1/workspaces/${docs.id}/comments`, {
      token: alice.token,
      body: { page: 'export-me.md', body: 'A remark of mine' },
    });
    expect(comment.status).toBe(201);
    const invite = await server.request('POST', `/api/v1/workspaces/${docs.id}/invitations`, {
      token: alice.token,
      body: { email: 'carol@example.com', role: 'viewer' },
    });
    expect(invite.status).toBe(201);

    const { res, bytes } = await downloadZip(server.url, '/api/v1/users/me/export', alice.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="folio-.*\.zip"/);
    const files = await unzip(bytes);

    expect(jsonOf(files, 'profile.json')).toMatchObject({ id: alice.id, email: alice.email, name: 'Alice' });
    const memberships = jsonOf(files, 'memberships.json');
    expect(memberships.organizations).toEqual([
      expect.objectContaining({ handle: aliceOrg, role: 'superadmin' }),
    ]);
    expect(jsonOf(files, 'sessions.json').length).toBeGreaterThanOrEqual(1);
    expect(jsonOf(files, 'api-keys.json')).toEqual([
      expect.objectContaining({ id: key.body.id, name: 'CI key', prefix: key.body.prefix, scopes: ['read'] }),
    ]);
    expect(jsonOf(files, 'comments.json')).toEqual([
      expect.objectContaining({ body: 'A remark of mine', page: 'export-me.md' }),
    ]);
    expect(
      jsonOf(files, 'activity.json').map((a: { action: string; path: string }) => `${a.action} ${a.path}`),
    ).toContain('page_created export-me.md');
    expect(jsonOf(files, 'invitations-sent.json')).toEqual([
      expect.objectContaining({ email: 'carol@example.com', role: 'viewer', workspace: docs.slug }),
    ]);
    expect(jsonOf(files, 'passkeys.json')).toEqual([]);
    expect(jsonOf(files, 'identities.json')).toEqual([]);
    // No secret of any kind: not the key, not a hash, not a token.
    const everything = [...files.values()].map((b) => b.toString('utf8')).join('\n');
    expect(everything).not.toContain(key.body.key);
    expect(everything).not.toMatch(/key_hash|password_hash|token_hash|\$argon2/);

    const again = await server.request('GET', '/api/v1/users/me/export', { token: alice.token });
    expect(again.status).toBe(429);
    expect(again.body.error).toBe('RATE_LIMITED');
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) {
      expect(again.headers.get(header), header).not.toBeNull();
    }
    expect(again.headers.get('x-ratelimit-limit')).toBe('1');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
  });

  it("exports an organization for its Super Admin: every workspace's pages, members and roles", async () => {
    await createPage(server, alice, docs, 'guides/setup.md', { title: 'Setup', body: 'Install it.' });
    await createPage(server, bob, docs, 'guides/bobs-notes.md', { title: 'Notes' });
    await createPage(server, alice, handbook, 'policies/leave.md', { title: 'Leave' });
    const pages = async (ws: TestWorkspace) =>
      (await server.request('GET', `/api/v1/content/${ws.slug}/tree`, { token: alice.token })).body;
    const paths = (nodes: Array<{ type: string; path: string; children?: unknown[] }>): string[] =>
      nodes.flatMap((n) => (n.type === 'page' ? [n.path] : paths((n.children ?? []) as typeof nodes)));

    const { res, bytes } = await downloadZip(server.url, `/api/v1/orgs/${aliceOrg}/export`, alice.token);
    expect(res.status).toBe(200);
    const files = await unzip(bytes);
    for (const ws of [docs, handbook]) {
      const expected = paths((await pages(ws)).tree);
      expect(expected.length).toBeGreaterThan(0);
      for (const p of expected) expect(files.has(`workspaces/${ws.slug}/files/${p}`), p).toBe(true);
      expect(jsonOf(files, `workspaces/${ws.slug}/workspace.json`)).toMatchObject({ slug: ws.slug });
    }
    expect(files.get(`workspaces/${docs.slug}/files/guides/setup.md`)!.toString()).toContain('Install it.');
    expect([...files.keys()].some((name) => name.includes('/.git/'))).toBe(false);
    expect(jsonOf(files, 'organization.json')).toMatchObject({ handle: aliceOrg, plan: 'team' });
    const members = jsonOf(files, 'members.json');
    expect(members.organization).toEqual([expect.objectContaining({ id: alice.id, role: 'superadmin' })]);
    expect(members.workspaces[docs.slug]).toEqual([expect.objectContaining({ id: bob.id, role: 'editor' })]);

    const byEditor = await server.request('GET', `/api/v1/orgs/${aliceOrg}/export`, { token: bob.token });
    expect(byEditor.status).toBe(403);
    const byStranger = await server.request('GET', `/api/v1/orgs/${aliceOrg}/export`, {
      token: outsider.token,
    });
    expect(byStranger.status).toBe(404);
    const unknown = await server.request('GET', '/api/v1/orgs/no-such-org/export', { token: alice.token });
    expect(unknown.status).toBe(404);
  });

  it('refuses to delete the last Super Admin of an organization others work in, and says what to do', async () => {
    const wrong = await server.request('DELETE', '/api/v1/users/me', {
      token: alice.token,
      body: { password: 'not my password' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.field).toBe('password');
    const res = await server.request('DELETE', '/api/v1/users/me', {
      token: alice.token,
      body: { password: alice.password },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('CONFLICT');
    expect(res.body.details.reason).toBe('last_superadmin');
    expect(res.body.details.organizations).toEqual([
      expect.objectContaining({ handle: aliceOrg, members: 1 }),
    ]);
    expect(res.body.message).toMatch(/Super Admin/);
    expect((await server.request('GET', '/api/auth/me', { token: alice.token })).status).toBe(200);
  });

  it('deletes an account: personal data gone, pages and comments kept with the organization as "Deleted user"', async () => {
    const page = await createPage(server, bob, docs, 'bob/guide.md', {
      title: 'Bob guide',
      body: 'Written by Bob.',
    });
    const comment = await server.request('POST', `/api/v1/workspaces/${docs.id}/comments`, {
      token: bob.token,
      body: { page: 'bob/guide.md', body: 'Bob was here' },
    });
    expect(comment.status).toBe(201);
    const key = await server.request('POST', '/api/v1/api-keys', {
      token: bob.token,
      body: { name: 'bob key' },
    });
    expect(key.status).toBe(201);

    const missing = await server.request('DELETE', '/api/v1/users/me', { token: bob.token, body: {} });
    expect(missing.status).toBe(400);
    const res = await server.request('DELETE', '/api/v1/users/me', {
      token: bob.token,
      body: { password: bob.password },
    });
    expect(res.status).toBe(204);

    // Every way of being Bob is gone.
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: bob.email, password: bob.password },
    });
    expect(login.status).toBe(401);
    expect((await server.request('GET', '/api/auth/me', { token: bob.token })).status).toBe(401);
    expect((await server.request('GET', '/api/v1/workspaces', { token: key.body.key })).status).toBe(401);
    const db = server.folio.store.db;
    for (const table of [
      'sessions',
      'refresh_tokens',
      'api_keys',
      'workspace_members',
      'org_members',
    ] as const) {
      const rows = await db.selectFrom(table).select('user_id').where('user_id', '=', bob.id).execute();
      expect(rows, table).toEqual([]);
    }
    const row = await db.selectFrom('users').selectAll().where('id', '=', bob.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'Deleted user', password_hash: null });
    expect(row.email).not.toBe(bob.email);
    expect(row.deleted_at).not.toBeNull();

    // What Bob wrote stays with the organization, under "Deleted user".
    const read = await server.request('GET', `/api/v1/content/${docs.slug}/bob/guide.md`, {
      token: alice.token,
    });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      page_id: page.page_id,
      content: expect.stringContaining('Written by Bob.'),
    });
    const history = await server.request(
      'GET',
      `/api/v1/workspaces/${docs.id}/page-activity?page=bob/guide.md`,
      {
        token: alice.token,
      },
    );
    expect(history.body.data).toContainEqual(
      expect.objectContaining({ action: 'page_created', actor_name: 'Deleted user' }),
    );
    const comments = await server.request('GET', `/api/v1/workspaces/${docs.id}/comments?page=bob/guide.md`, {
      token: alice.token,
    });
    expect(comments.body.data[0]).toMatchObject({
      body: 'Bob was here',
      author: expect.objectContaining({ name: 'Deleted user' }),
    });
    const members = await server.request('GET', `/api/v1/workspaces/${docs.id}/admin/members`, {
      token: alice.token,
    });
    expect(members.body.data.map((m: { user_id: string }) => m.user_id)).not.toContain(bob.id);
  });

  it('asks an account without a password for a sign-in of the last five minutes instead', async () => {
    const dana = await registerUser(server, { name: 'Dana' });
    const db = server.folio.store.db;
    // As an account opened through an identity provider: no password at all.
    await db.updateTable('users').set({ password_hash: null }).where('id', '=', dana.id).execute();
    await db
      .updateTable('sessions')
      .set({ created_at: new Date(Date.now() - 10 * 60_000).toISOString() })
      .where('user_id', '=', dana.id)
      .execute();
    const stale = await server.request('DELETE', '/api/v1/users/me', { token: dana.token, body: {} });
    expect(stale.status).toBe(403);
    expect(stale.body.details.reason).toBe('fresh_sign_in_required');
    await db
      .updateTable('sessions')
      .set({ created_at: new Date().toISOString() })
      .where('user_id', '=', dana.id)
      .execute();
    const fresh = await server.request('DELETE', '/api/v1/users/me', { token: dana.token, body: {} });
    expect(fresh.status).toBe(204);
    expect((await server.request('GET', '/api/auth/me', { token: dana.token })).status).toBe(401);
  });

  it('lets the last Super Admin go once nobody else works in the organization', async () => {
    const res = await server.request('DELETE', '/api/v1/users/me', {
      token: alice.token,
      body: { password: alice.password },
    });
    expect(res.status).toBe(204);
    expect(
      (
        await server.request('POST', '/api/auth/login', {
          body: { email: alice.email, password: alice.password },
        })
      ).status,
    ).toBe(401);
  });
});
