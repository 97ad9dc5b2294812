import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';

/**
 * Cookie-authenticated changes must come from Folio's own pages: SameSite=Strict
 * is the first barrier, the Origin and Sec-Fetch-Site check the second.
 */
describe('cross-origin requests with the session cookie', () => {
  const PUBLIC_URL = 'https://docs.example.test';
  let server: TestServer;
  let user: TestUser;
  beforeAll(async () => {
    server = await startServer({ env: { PUBLIC_URL } });
    user = await registerUser(server);
  });
  afterAll(() => server.close());

  const withCookie = (headers: Record<string, string> = {}) => ({
    cookie: `folio_access=${user.token}`,
    ...headers,
  });
  const createKey = (headers: Record<string, string>, token?: string) =>
    server.request('POST', '/api/v1/api-keys', {
      headers,
      body: { name: 'csrf' },
      ...(token ? { token } : {}),
    });

  it('refuses a change from another origin, from a cross-site fetch and from an opaque origin', async () => {
    const before = (await server.request('GET', '/api/v1/api-keys', { token: user.token })).body.data.length;
    const forged: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://sub.docs.example.test' },
      { origin: 'null' },
    ];
    for (const headers of forged) {
      const res = await createKey(withCookie(headers));
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error).toBe('FORBIDDEN');
    }
    const after = (await server.request('GET', '/api/v1/api-keys', { token: user.token })).body.data.length;
    expect(after).toBe(before);
  });

  it('accepts the public origin, the request’s own origin and clients that send no Origin', async () => {
    const own = new URL(server.url).origin;
    const genuine: Record<string, string>[] = [
      { origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' },
      { origin: own, 'sec-fetch-site': 'same-origin' },
      {},
    ];
    for (const headers of genuine) {
      expect((await createKey(withCookie(headers))).status, JSON.stringify(headers)).toBe(201);
    }
  });

  it('leaves bearer tokens and safe methods alone', async () => {
    expect((await createKey({ origin: 'https://evil.example' }, user.token)).status).toBe(201);
    const read = await server.request('GET', '/api/v1/api-keys', {
      headers: withCookie({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
    });
    expect(read.status).toBe(200);
  });

  it('refuses a cross-origin refresh that would spend the refresh cookie', async () => {
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    const cookie = `folio_refresh=${login.body.refresh_token}`;
    const forged = await server.request('POST', '/api/auth/refresh', {
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(forged.status).toBe(403);
    const own = await server.request('POST', '/api/auth/refresh', {
      headers: { cookie, origin: PUBLIC_URL },
    });
    expect(own.status).toBe(200);
  });
});
