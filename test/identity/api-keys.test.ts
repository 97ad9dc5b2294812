import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { createWorkspace, grantRole } from '../helpers/workspace-access.js';

describe('API keys', () => {
  let server: TestServer;
  let user: TestUser;
  beforeAll(async () => {
    server = await startServer();
    user = await registerUser(server);
  });
  afterAll(() => server.close());

  const create = (body: unknown, token = user.token) =>
    server.request('POST', '/api/v1/api-keys', { body, token });

  it('shows the full svc_live_ key once, defaults to read+write+delete, and lists only the prefix', async () => {
    const res = await create({ name: 'CI' });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^svc_live_[\w-]{40,}$/);
    expect(res.body.scopes).toEqual(['read', 'write', 'delete']);
    expect(res.body.key.startsWith(res.body.prefix)).toBe(true);
    expect(Object.keys(res.body).sort()).toEqual(
      ['created_at', 'expires_at', 'id', 'key', 'last_used_at', 'name', 'org', 'prefix', 'scopes'].sort(),
    );
    const list = await server.request('GET', '/api/v1/api-keys', { token: user.token });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(res.body.key);
    expect(list.body.data.find((k: { id: string }) => k.id === res.body.id).prefix).toBe(res.body.prefix);
  });

  it('stores only an HMAC of the key', async () => {
    const res = await create({ name: 'stored' });
    const row = await server.folio.store.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(res.body.key);
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('authenticates as its owner; a read-only key may GET but not POST', async () => {
    const readOnly = (await create({ name: 'reader', scopes: ['read'] })).body.key;
    const me = await server.request('GET', '/api/auth/me', { token: readOnly });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
    expect((await server.request('GET', '/api/v1/api-keys', { token: readOnly })).status).toBe(200);
    const refused = await create({ name: 'escalate' }, readOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('FORBIDDEN');
  });

  it('rotation answers a new key once; the old value stops working', async () => {
    const created = (await create({ name: 'rotating' })).body;
    const rotated = await server.request('POST', `/api/v1/api-keys/${created.id}/rotate`, {
      token: user.token,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.key).toMatch(/^svc_live_/);
    expect(rotated.body.key).not.toBe(created.key);
    expect((await server.request('GET', '/api/auth/me', { token: created.key })).status).toBe(401);
    expect((await server.request('GET', '/api/auth/me', { token: rotated.body.key })).status).toBe(200);
  });

  it('deletes a key; it then fails', async () => {
    const created = (await create({ name: 'doomed' })).body;
    expect(
      (await server.request('DELETE', `/api/v1/api-keys/${created.id}`, { token: user.token })).status,
    ).toBe(204);
    expect((await server.request('GET', '/api/auth/me', { token: created.key })).status).toBe(401);
    expect(
      (await server.request('DELETE', `/api/v1/api-keys/${created.id}`, { token: user.token })).status,
    ).toBe(404);
  });

  it('refuses an expired key and a past expiry', async () => {
    const past = await create({ name: 'old', expires_at: Math.floor(Date.now() / 1000) - 10 });
    expect(past.status).toBe(400);
    expect(past.body.details.field).toBe('expires_at');
    // A few seconds of validity, so a loaded machine still sees the key work first.
    const expiresAt = Math.floor(Date.now() / 1000) + 4;
    const soon = (await create({ name: 'soon', expires_at: expiresAt })).body;
    expect((await server.request('GET', '/api/auth/me', { token: soon.key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt * 1000 + 1100 - Date.now())));
    expect((await server.request('GET', '/api/auth/me', { token: soon.key })).status).toBe(401);
  });

  it('refuses unknown scopes and keys of another user', async () => {
    expect((await create({ name: 'x', scopes: ['root'] })).status).toBe(400);
    const other = await registerUser(server);
    const mine = (await create({ name: 'mine' })).body;
    expect(
      (await server.request('DELETE', `/api/v1/api-keys/${mine.id}`, { token: other.token })).status,
    ).toBe(404);
  });

  it('refuses anonymous callers', async () => {
    expect((await server.request('GET', '/api/v1/api-keys')).status).toBe(401);
    expect((await server.request('GET', '/api/v1/api-keys', { token: 'svc_live_nonsense' })).status).toBe(
      401,
    );
  });
});

describe('API keys acting in another organization', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  const orgOf = async (user: TestUser): Promise<string> =>
    (await server.request('GET', '/api/auth/me', { token: user.token })).body.org.handle;
  const createKey = (user: TestUser | string, body: Record<string, unknown>) =>
    server.request('POST', '/api/v1/api-keys', {
      token: typeof user === 'string' ? user : user.token,
      body: { name: 'docs', ...body },
    });

  it('lets an invited editor use a key on the workspace, never beyond their role', async () => {
    const owner = await registerUser(server);
    const writer = await registerUser(server);
    const docs = await firstWorkspace(server, owner);
    const handbook = await createWorkspace(server, owner, `handbook-${Date.now()}`);
    await grantRole(server, docs, writer, 'editor');
    await grantRole(server, handbook, writer, 'viewer');
    const ownerOrg = await orgOf(owner);

    // A key of the writer's own organization cannot reach the invited workspace.
    const ownKey = (await createKey(writer, {})).body;
    expect(ownKey.org).toBe(await orgOf(writer));
    const page = (token: string, workspace: { slug: string }, name: string) =>
      server.request('POST', `/api/v1/content/${workspace.slug}/${name}.md`, {
        token,
        body: { title: name },
      });
    expect((await page(ownKey.key, docs, 'own-key')).status).toBe(404);

    const created = await createKey(writer, { org: ownerOrg });
    expect(created.status).toBe(201);
    expect(created.body.org).toBe(ownerOrg);
    const key = created.body.key as string;
    expect((await page(key, docs, 'from-a-script')).status).toBe(201);
    const listed = await server.request('GET', '/api/v1/workspaces', { token: key });
    expect(listed.body.data.map((w: { slug: string }) => w.slug).sort()).toEqual(
      [docs.slug, handbook.slug].sort(),
    );
    // Viewer in the handbook: the key reads but cannot write there.
    expect(
      (await server.request('GET', `/api/v1/content/${handbook.slug}/tree`, { token: key })).status,
    ).toBe(200);
    expect((await page(key, handbook, 'nope')).status).toBe(403);
    // Not the organization's Super Admin: no workspace creation with it.
    const workspace = await server.request('POST', '/api/v1/workspaces', {
      token: key,
      body: { name: 'Mine', slug: `mine-${Date.now()}` },
    });
    expect(workspace.status).toBe(403);
    // The key still belongs to its user: the listing shows its organization.
    const keys = await server.request('GET', '/api/v1/api-keys', { token: writer.token });
    expect(keys.body.data.find((k: { id: string }) => k.id === created.body.id).org).toBe(ownerOrg);
    // And once the membership ends, so does the key's reach.
    await server.folio.store.db.deleteFrom('workspace_members').where('user_id', '=', writer.id).execute();
    expect((await page(key, docs, 'after-removal')).status).toBe(404);
  });

  it('refuses an organization the user is not a member of, and an unknown one, alike', async () => {
    const user = await registerUser(server);
    const stranger = await registerUser(server);
    const foreign = await createKey(user, { org: await orgOf(stranger) });
    const unknown = await createKey(user, { org: 'no-such-org' });
    for (const res of [foreign, unknown]) {
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('VALIDATION_ERROR');
      expect(res.body.details.field).toBe('org');
    }
    expect(foreign.body.message).toBe(unknown.body.message);
  });

  it('keeps a key that creates keys inside its own organization', async () => {
    const owner = await registerUser(server);
    const writer = await registerUser(server);
    await grantRole(server, await firstWorkspace(server, owner), writer, 'editor');
    const key = (await createKey(writer, { org: await orgOf(owner) })).body.key as string;
    const escape = await createKey(key, { org: await orgOf(writer) });
    expect(escape.status).toBe(403);
    const same = await createKey(key, {});
    expect(same.status).toBe(201);
    expect(same.body.org).toBe(await orgOf(owner));
  });
});

describe('the API-key pepper', () => {
  it('is made (mode 0600) with the first key, not at start, and keeps keys working after a restart', async () => {
    const first = await startServer();
    const dataDir = first.dataDir;
    const pepperFile = path.join(dataDir, 'api-key-pepper');
    const user = await registerUser(first);
    expect(fs.existsSync(pepperFile)).toBe(false);
    // A key presented before any exists is refused, and makes the pepper it is checked with.
    const unknown = await first.request('GET', '/api/v1/workspaces', { token: `svc_live_${'x'.repeat(43)}` });
    expect(unknown.status).toBe(401);
    const made = await first.request('POST', '/api/v1/api-keys', {
      body: { name: 'kept' },
      token: user.token,
    });
    expect(made.status).toBe(201);
    expect(fs.statSync(pepperFile).mode & 0o777).toBe(0o600);
    const pepper = fs.readFileSync(pepperFile, 'utf8');
    await first.close();

    const again = await startServer({ dataDir });
    try {
      const res = await again.request('GET', '/api/v1/workspaces', { token: made.body.key as string });
      expect(res.status).toBe(200);
      expect(fs.readFileSync(pepperFile, 'utf8')).toBe(pepper);
    } finally {
      await again.close();
    }
  });
});

describe('the JWT signing key', () => {
  it('is generated with mode 0600; deleting it and restarting invalidates every session', async () => {
    const first = await startServer();
    const dataDir = first.dataDir;
    const user = await registerUser(first);
    expect((await first.request('GET', '/api/auth/me', { token: user.token })).status).toBe(200);
    const keyFile = path.join(dataDir, 'jwt-private.pem');
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    const signIn = async (server: TestServer) =>
      (
        await server.request('POST', '/api/auth/login', {
          body: { email: user.email, password: user.password },
        })
      ).body as { access_token: string; refresh_token: string };
    const refresh = (server: TestServer, token: string) =>
      server.request('POST', '/api/auth/refresh', { body: { refresh_token: token } });
    const kept = (await signIn(first)).refresh_token;
    const doomed = (await signIn(first)).refresh_token;
    await first.close();

    const same = await startServer({ dataDir });
    expect((await same.request('GET', '/api/auth/me', { token: user.token })).status).toBe(200);
    expect((await refresh(same, kept)).status).toBe(200);
    await same.close();

    fs.rmSync(keyFile);
    const rotated = await startServer({ dataDir });
    try {
      expect((await rotated.request('GET', '/api/auth/me', { token: user.token })).status).toBe(401);
      // A refresh token of the old key mints nothing, and its session is no longer listed.
      const stale = await refresh(rotated, doomed);
      expect(stale.status).toBe(401);
      expect(stale.body.error).toBe('UNAUTHORIZED');
      const login = await signIn(rotated);
      expect(login.access_token).toBeTruthy();
      const sessions = await rotated.request('GET', '/api/auth/sessions', { token: login.access_token });
      expect(sessions.body.data).toHaveLength(1);
    } finally {
      await rotated.close();
    }
  });
});
