/**
 * `POST /api/auth/change-password` over HTTP: the current password is checked, the new one
 * follows the password rules, other sessions end while the caller carries on, API keys stay,
 * and an API key cannot change the password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser } from '../helpers/users.js';

describe('changing a password', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const login = (email: string, password: string) =>
    server.request('POST', '/api/auth/login', { body: { email, password } });

  it('checks the current password, signs out other sessions and keeps the caller and API keys', async () => {
    const user = await registerUser(server, { password: 'first password' });
    const otherDevice = (await login(user.email, 'first password')).body;
    const key = (
      await server.request('POST', '/api/v1/api-keys', {
        token: user.token,
        body: { name: 'ci', scopes: ['read'] },
      })
    ).body.key as string;

    const wrong = await server.request('POST', '/api/auth/change-password', {
      token: user.token,
      body: { current_password: 'not it', new_password: 'second password' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'current_password' } });

    const short = await server.request('POST', '/api/auth/change-password', {
      token: user.token,
      body: { current_password: 'first password', new_password: 'short' },
    });
    expect(short.status).toBe(400);
    expect(short.body.details).toEqual({ field: 'new_password' });

    const changed = await server.request('POST', '/api/auth/change-password', {
      token: user.token,
      body: { current_password: 'first password', new_password: 'second password' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.access_token).toEqual(expect.any(String));
    expect(changed.headers.getSetCookie().join('\n')).toMatch(/HttpOnly/);

    expect((await login(user.email, 'first password')).status).toBe(401);
    expect((await login(user.email, 'second password')).status).toBe(200);
    // The other device is signed out; the caller goes on with the tokens it was given.
    const other = await server.request('GET', '/api/auth/me', { token: otherDevice.access_token });
    expect(other.status).toBe(401);
    const refresh = await server.request('POST', '/api/auth/refresh', {
      body: { refresh_token: otherDevice.refresh_token },
    });
    expect(refresh.status).toBe(401);
    expect((await server.request('GET', '/api/auth/me', { token: changed.body.access_token })).status).toBe(
      200,
    );
    expect((await server.request('GET', '/api/v1/workspaces', { token: key })).status).toBe(200);
  });

  it('is refused to an API key and to anonymous callers', async () => {
    const user = await registerUser(server, { password: 'first password' });
    const key = (
      await server.request('POST', '/api/v1/api-keys', {
        token: user.token,
        body: { name: 'ci', scopes: ['admin'] },
      })
    ).body.key as string;
    const body = { current_password: 'first password', new_password: 'second password' };
    const byKey = await server.request('POST', '/api/auth/change-password', { token: key, body });
    expect(byKey.status).toBe(403);
    expect((await server.request('POST', '/api/auth/change-password', { body })).status).toBe(401);
    expect((await login(user.email, 'first password')).status).toBe(200);
  });
});
