/**
 * Layout C's `/api/v1/auth/*` and Layout B's registration through real HTTP, on both
 * databases: the older requests and response shapes, the current lifetimes (refresh 7
 * days), terms recorded as not accepted without `terms_accepted`, and the session usable
 * through the current layout.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { expectCurrent, expectDeprecated, startOn } from './compat-helpers.js';

const SEVEN_DAYS = 7 * 24 * 3600;
let ip = 0;
const fromNewAddress = () => ({ 'x-forwarded-for': `10.9.${(ip += 1) >> 8}.${ip & 255}` });

describeEachDatabase('older layouts: auth ($name)', (target) => {
  let server: TestServer;
  let cleanup: () => Promise<void>;
  const termsOf = async (email: string) =>
    (
      await server.folio.store.db
        .selectFrom('users')
        .select('terms_accepted')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).terms_accepted;

  beforeAll(async () => {
    ({ server, cleanup } = await startOn(target));
  });
  afterAll(async () => cleanup?.());

  it('registers through Layout C and signs in, refreshes and reads /api/auth/me', async () => {
    const email = 'carol@example.com';
    const registered = await server.request('POST', '/api/v1/auth/register', {
      headers: fromNewAddress(),
      body: { name: 'Carol', email, password: 'correct horse battery' },
    });
    expect(registered.status).toBe(201);
    expectDeprecated(registered, '/api/auth/register');
    expect(Object.keys(registered.body).sort()).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'user',
    ]);
    expect(registered.body.user).toMatchObject({ email, role: 'superadmin' });
    expect(await termsOf(email)).toBe(0);
    // The refresh cookie lives the current 7 days, not Layout C's 30.
    const cookie = registered.headers.getSetCookie().find((c) => c.startsWith('folio_refresh='));
    expect(cookie).toContain(`Max-Age=${SEVEN_DAYS}`);

    const login = await server.request('POST', '/api/v1/auth/login', {
      body: { email, password: 'correct horse battery' },
    });
    expect(login.status).toBe(200);
    expectDeprecated(login, '/api/auth/login');
    expect(Object.keys(login.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token']);
    expect(login.body.expires_in).toBe(900);

    const refreshed = await server.request('POST', '/api/v1/auth/refresh', {
      body: { refresh_token: login.body.refresh_token },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(login.body.refresh_token);
    const me = await server.request('GET', '/api/auth/me', { token: refreshed.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    expectCurrent(me);

    // Rotated: the old refresh token is spent.
    const reused = await server.request('POST', '/api/v1/auth/refresh', {
      body: { refresh_token: login.body.refresh_token },
    });
    expect(reused.status).toBe(401);
  });

  it('registers with Folio-Layout: B without terms_accepted, and the current layout still requires them', async () => {
    const email = 'bob@example.com';
    const current = await server.request('POST', '/api/auth/register', {
      headers: fromNewAddress(),
      body: { name: 'Bob', email, password: 'correct horse battery' },
    });
    expect(current.status).toBe(400);
    expect(current.body.details.field).toBe('terms_accepted');
    expectCurrent(current);

    const older = await server.request('POST', '/api/auth/register', {
      headers: { ...fromNewAddress(), 'Folio-Layout': 'B' },
      body: { name: 'Bob', email, password: 'correct horse battery' },
    });
    expect(older.status).toBe(201);
    expectDeprecated(older, '/api/auth/register');
    expect(Object.keys(older.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'user']);
    expect(await termsOf(email)).toBe(0);

    const accepted = await server.request('POST', '/api/auth/register', {
      headers: { ...fromNewAddress(), 'Folio-Layout': 'B' },
      body: {
        name: 'Ann',
        email: 'ann@example.com',
        password: 'correct horse battery',
        terms_accepted: true,
      },
    });
    expect(accepted.status).toBe(201);
    expect(await termsOf('ann@example.com')).toBe(1);
  });

  it('resets a password through password-reset and password-reset/confirm', async () => {
    const email = 'dan@example.com';
    await server.request('POST', '/api/v1/auth/register', {
      headers: fromNewAddress(),
      body: { name: 'Dan', email, password: 'correct horse battery' },
    });
    const asked = await server.request('POST', '/api/v1/auth/password-reset', { body: { email } });
    expect(asked.status).toBe(200);
    expectDeprecated(asked, '/api/auth/forgot-password');
    const unknown = await server.request('POST', '/api/v1/auth/password-reset', {
      body: { email: 'nobody@example.com' },
    });
    expect(unknown.status).toBe(200);

    const bad = await server.request('POST', '/api/v1/auth/password-reset/confirm', {
      body: { token: 'not-a-token', new_password: 'another long password' },
    });
    expect(bad.status).toBe(400);
    expectDeprecated(bad, '/api/auth/reset-password');
  });

  it('redirects the Layout C identity-provider callback to the current one, query and all', async () => {
    const res = await server.request('GET', '/api/v1/auth/callback/github?code=abc&state=xyz');
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('/api/auth/oidc/github/callback?code=abc&state=xyz');
    expectDeprecated(res, '/api/auth/oidc/github/callback');
  });
});
