import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';

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
      ['created_at', 'expires_at', 'id', 'key', 'last_used_at', 'name', 'prefix', 'scopes'].sort(),
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
    const soon = (await create({ name: 'soon', expires_at: Math.floor(Date.now() / 1000) + 1 })).body;
    expect((await server.request('GET', '/api/auth/me', { token: soon.key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
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
