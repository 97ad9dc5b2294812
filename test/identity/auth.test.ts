import fs from 'node:fs';
import path from 'node:path';
import { importPKCS8, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser } from '../helpers/users.js';

function decodeJwt(token: string) {
  const [header, payload] = token
    .split('.')
    .slice(0, 2)
    .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
  return { header, payload };
}

function cookies(res: { headers: Headers }): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of res.headers.getSetCookie()) map.set(line.split('=')[0]!, line);
  return map;
}

describe('registration', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  it('answers 201 with the user, an access token, its expiry and a secure refresh cookie', async () => {
    const res = await server.request('POST', '/api/auth/register', {
      body: {
        name: 'Ada Lovelace',
        email: ' Ada@Example.com ',
        password: 'analytical',
        terms_accepted: true,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      role: 'superadmin',
    });
    expect(res.body.user.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(typeof res.body.access_token).toBe('string');
    expect(Date.parse(res.body.expires_at)).toBeGreaterThan(Date.now());
    const refresh = cookies(res).get('folio_refresh');
    expect(refresh).toBeDefined();
    expect(refresh).toContain('HttpOnly');
    expect(refresh).toContain('Secure');
    expect(refresh).toContain('SameSite=Strict');
    expect(refresh).toContain('Path=/');
  });

  it('requires terms_accepted, naming the field', async () => {
    const res = await server.request('POST', '/api/auth/register', {
      body: { name: 'A', email: 'terms@example.com', password: 'long enough' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('VALIDATION_ERROR');
    expect(res.body.details.field).toBe('terms_accepted');
  });

  it('refuses a 7-character password and accepts an 8-character one', async () => {
    const short = await server.request('POST', '/api/auth/register', {
      body: { name: 'A', email: 'short@example.com', password: '1234567', terms_accepted: true },
    });
    expect(short.status).toBe(400);
    expect(short.body.details.field).toBe('password');
    const ok = await server.request('POST', '/api/auth/register', {
      body: { name: 'A', email: 'short@example.com', password: '12345678', terms_accepted: true },
      headers: { 'x-forwarded-for': '10.9.9.9' },
    });
    expect(ok.status).toBe(201);
  });

  it('answers 409 for a taken email, whatever its case', async () => {
    await registerUser(server, { email: 'taken@example.com' });
    const res = await server.request('POST', '/api/auth/register', {
      body: { name: 'B', email: 'TAKEN@example.com', password: 'whatever1', terms_accepted: true },
      headers: { 'x-forwarded-for': '10.9.9.10' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('CONFLICT');
  });

  it('makes the first user the platform owner and gives handles from the email', async () => {
    const server2 = await startServer();
    try {
      const first = await registerUser(server2, { email: 'grace.hopper@example.com' });
      const second = await registerUser(server2, { email: 'grace.hopper@example.org' });
      const me1 = await server2.request('GET', '/api/auth/me', { token: first.token });
      const me2 = await server2.request('GET', '/api/auth/me', { token: second.token });
      expect(me1.body).toMatchObject({ handle: 'grace-hopper', role: 'superadmin', platform_owner: true });
      expect(me1.body.org.handle).toBe('grace-hopper');
      expect(me2.body).toMatchObject({ handle: 'grace-hopper-2', platform_owner: false });
      expect(me2.body.org.handle).toBe('grace-hopper-2');
    } finally {
      await server2.close();
    }
  });

  it('limits registration to 5 per hour per IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await server.request('POST', '/api/auth/register', {
        body: { name: 'R', email: `burst${i}@example.com`, password: 'long enough', terms_accepted: true },
        headers: { 'x-forwarded-for': '10.200.0.1' },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get('retry-after')).toBeTruthy();
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});

describe('registration modes', () => {
  let ip = 0;
  const register = (server: TestServer, email: string, extra: Record<string, string> = {}) =>
    server.request('POST', '/api/auth/register', {
      body: { name: 'N', email, password: 'long enough', terms_accepted: true, ...extra },
      headers: { 'x-forwarded-for': `10.201.0.${++ip}` },
    });

  it('closed: the first account can still be created, then nobody', async () => {
    const server = await startServer({ env: { REGISTRATION: 'closed' } });
    try {
      expect((await register(server, 'founder@example.com')).status).toBe(201);
      const refused = await register(server, 'late@example.com');
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('FORBIDDEN');
      expect(refused.body.message).toMatch(/closed/);
    } finally {
      await server.close();
    }
  });

  it('invite-only: admits an invitation for the same email or a share link, and joins its workspace', async () => {
    const server = await startServer({ env: { REGISTRATION: 'invite-only' } });
    try {
      const owner = await registerUser(server);
      const ws = await firstWorkspace(server, owner);
      const uninvited = await register(server, 'uninvited@example.com');
      expect(uninvited.status).toBe(403);
      expect(uninvited.body.message).toMatch(/invitation or a share link/);

      const invitation = await server.request('POST', `/api/v1/workspaces/${ws.id}/invitations`, {
        token: owner.token,
        body: { email: 'writer@example.com', role: 'editor' },
      });
      const invitationToken = invitation.body.token as string;
      expect(
        (await register(server, 'other@example.com', { invitation_token: invitationToken })).status,
      ).toBe(403);
      const writer = await register(server, 'writer@example.com', { invitation_token: invitationToken });
      expect(writer.status).toBe(201);
      const theirs = await server.request('GET', '/api/v1/workspaces', { token: writer.body.access_token });
      expect(theirs.body.data.find((w: { id: string }) => w.id === ws.id)?.role).toBe('editor');
      const reused = await register(server, 'writer2@example.com', { invitation_token: invitationToken });
      expect(reused.status).toBe(403); // sent to another address
      const spent = await register(server, 'WRITER@example.com', { invitation_token: invitationToken });
      expect(spent.status).toBe(400); // used once already
      expect(spent.body.details.field).toBe('invitation_token');

      const link = await server.request('POST', `/api/v1/workspaces/${ws.id}/share-links`, {
        token: owner.token,
        body: { role: 'viewer', max_uses: 1 },
      });
      const reader = await register(server, 'reader@example.com', { share_token: link.body.token });
      expect(reader.status).toBe(201);
      const readable = await server.request('GET', '/api/v1/workspaces', { token: reader.body.access_token });
      expect(readable.body.data.find((w: { id: string }) => w.id === ws.id)?.role).toBe('viewer');
      for (const share_token of [link.body.token as string, 'no-such-link']) {
        const res = await register(server, `again-${share_token.length}@example.com`, { share_token });
        expect(res.status).toBe(400);
        expect(res.body.details.field).toBe('share_token');
      }
    } finally {
      await server.close();
    }
  });
});

describeEachDatabase('login, tokens and sessions on $name', (target) => {
  const clock = manualClock(new Date());
  let server: TestServer;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const db = await target.prepare();
    cleanup = db.cleanup;
    server = await startServer({ clock, env: db.env, ...(db.pgSchema ? { pgSchema: db.pgSchema } : {}) });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  const login = (email: string, password: string, ip = '10.1.0.1') =>
    server.request('POST', '/api/auth/login', {
      body: { email, password },
      headers: { 'x-forwarded-for': ip, 'user-agent': 'vitest-agent/1.0' },
    });

  it('answers the token pair with an RS256 JWT living 900 seconds, and sets cookies', async () => {
    const user = await registerUser(server);
    const res = await login(user.email, user.password);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token']);
    expect(res.body.expires_in).toBe(900);
    const { header, payload } = decodeJwt(res.body.access_token);
    expect(header.alg).toBe('RS256');
    expect(payload.exp - payload.iat).toBe(900);
    expect(payload.sub).toBe(user.id);
    const set = cookies(res);
    for (const name of ['folio_access', 'folio_refresh']) {
      expect(set.get(name)).toMatch(/HttpOnly/);
      expect(set.get(name)).toMatch(/Secure/);
      expect(set.get(name)).toMatch(/SameSite=Strict/);
    }
    const me = await server.request('GET', '/api/auth/me', { token: res.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, email: user.email, role: 'superadmin' });
  });

  it('answers 401 alike for a wrong password and an unknown email', async () => {
    const user = await registerUser(server);
    const wrong = await login(user.email, 'not the password', '10.1.0.2');
    const unknown = await login('nobody@example.com', 'not the password', '10.1.0.2');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
    expect(wrong.body.error).toBe('UNAUTHORIZED');
  });

  it('locks the account for 15 minutes after 5 consecutive failures', async () => {
    const user = await registerUser(server);
    for (let i = 0; i < 5; i++)
      expect((await login(user.email, 'wrong password', '10.1.1.1')).status).toBe(401);
    const locked = await login(user.email, user.password, '10.1.1.2');
    expect(locked.status).toBe(429);
    expect(locked.body.error).toBe('RATE_LIMITED');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    clock.advance(15 * 60 * 1000 + 1000);
    expect((await login(user.email, user.password, '10.1.1.3')).status).toBe(200);
  });

  it('a success resets the failure count', async () => {
    const user = await registerUser(server);
    for (let i = 0; i < 4; i++) await login(user.email, 'wrong password', '10.1.2.1');
    expect((await login(user.email, user.password, '10.1.2.1')).status).toBe(200);
    for (let i = 0; i < 4; i++)
      expect((await login(user.email, 'wrong password', '10.1.2.2')).status).toBe(401);
    expect((await login(user.email, user.password, '10.1.2.3')).status).toBe(200);
  });

  it('rotates refresh tokens; the old one fails; its reuse revokes every session', async () => {
    const user = await registerUser(server);
    const first = (await login(user.email, user.password, '10.1.3.1')).body;
    const other = (await login(user.email, user.password, '10.1.3.2')).body;
    const rotated = await server.request('POST', '/api/auth/refresh', {
      body: { refresh_token: first.refresh_token },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(first.refresh_token);
    expect(rotated.body.expires_in).toBe(900);

    const reused = await server.request('POST', '/api/auth/refresh', {
      body: { refresh_token: first.refresh_token },
    });
    expect(reused.status).toBe(401);
    // The reuse revoked everything: the successor, the other device and every access token.
    expect(
      (
        await server.request('POST', '/api/auth/refresh', {
          body: { refresh_token: rotated.body.refresh_token },
        })
      ).status,
    ).toBe(401);
    expect(
      (await server.request('POST', '/api/auth/refresh', { body: { refresh_token: other.refresh_token } }))
        .status,
    ).toBe(401);
    expect((await server.request('GET', '/api/auth/me', { token: rotated.body.access_token })).status).toBe(
      401,
    );
  });

  it('refreshes from the cookie as a browser would', async () => {
    const user = await registerUser(server);
    const res = await login(user.email, user.password, '10.1.3.9');
    const cookie = `folio_refresh=${res.body.refresh_token}`;
    const rotated = await server.request('POST', '/api/auth/refresh', { headers: { cookie } });
    expect(rotated.status).toBe(200);
    const viaCookie = await server.request('GET', '/api/auth/me', {
      headers: { cookie: `folio_access=${rotated.body.access_token}` },
    });
    expect(viaCookie.status).toBe(200);
  });

  it('lists sessions with device, IP and times', async () => {
    const user = await registerUser(server);
    const a = (await login(user.email, user.password, '10.1.4.1')).body;
    const res = await server.request('GET', '/api/auth/sessions', { token: a.access_token });
    expect(res.status).toBe(200);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.data.length).toBe(2); // registration and this login
    const current = res.body.data.find((s: { current: boolean }) => s.current);
    expect(current).toMatchObject({ device: 'vitest-agent/1.0', ip: '10.1.4.1' });
    expect(current.created_at).toBeTruthy();
    expect(current.last_active_at).toBeTruthy();
  });

  it('logout ends every session and makes unexpired access tokens fail', async () => {
    const user = await registerUser(server);
    const a = (await login(user.email, user.password, '10.1.5.1')).body;
    const b = (await login(user.email, user.password, '10.1.5.2')).body;
    expect((await server.request('POST', '/api/auth/logout', { token: a.access_token })).status).toBe(204);
    expect((await server.request('GET', '/api/auth/me', { token: a.access_token })).status).toBe(401);
    expect((await server.request('GET', '/api/auth/me', { token: b.access_token })).status).toBe(401);
    expect(
      (await server.request('POST', '/api/auth/refresh', { body: { refresh_token: b.refresh_token } }))
        .status,
    ).toBe(401);
    // Signing in again works.
    expect((await login(user.email, user.password, '10.1.5.3')).status).toBe(200);
  });

  it('refuses a tampered token and a missing one', async () => {
    const user = await registerUser(server);
    const [header, , signature] = user.token.split('.');
    const payload = Buffer.from(JSON.stringify({ ...decodeJwt(user.token).payload, sub: 'x' })).toString(
      'base64url',
    );
    const forged = [header, payload, signature].join('.');
    expect((await server.request('GET', '/api/auth/me', { token: forged })).status).toBe(401);
    expect((await server.request('GET', '/api/auth/me')).status).toBe(401);
  });

  it('refuses a token without an expiry, even one signed with the server key', async () => {
    const user = await registerUser(server);
    const claims = decodeJwt(user.token).payload;
    const pem = fs.readFileSync(path.join(server.dataDir, 'jwt-private.pem'), 'utf8');
    const sign = (withExpiry: boolean) => {
      const jwt = new SignJWT({ org: claims.org, sid: claims.sid, epoch: claims.epoch })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuedAt(claims.iat);
      return importPKCS8(pem, 'RS256').then((key) =>
        (withExpiry ? jwt.setExpirationTime(claims.exp) : jwt).sign(key),
      );
    };
    // The same claims with an expiry pass, so only the missing `exp` is refused.
    expect((await server.request('GET', '/api/auth/me', { token: await sign(true) })).status).toBe(200);
    const endless = await server.request('GET', '/api/auth/me', { token: await sign(false) });
    expect(endless.status).toBe(401);
    expect(endless.body.error).toBe('UNAUTHORIZED');
  });

  it('answers 401 to a refresh that carries no token', async () => {
    for (const body of [{}, { refresh_token: 42 }]) {
      const res = await server.request('POST', '/api/auth/refresh', { body });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('UNAUTHORIZED');
    }
  });

  it('expires access tokens after 15 minutes', async () => {
    const user = await registerUser(server);
    clock.advance(15 * 60 * 1000 + 1000);
    expect((await server.request('GET', '/api/auth/me', { token: user.token })).status).toBe(401);
  });
});

describe('public routes with stale credentials', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  it('ignore a stale token, a garbage bearer, an unknown API key and a stale cookie', async () => {
    const user = await registerUser(server);
    expect((await server.request('POST', '/api/auth/logout', { token: user.token })).status).toBe(204);
    const stale: Record<string, string>[] = [
      { authorization: `Bearer ${user.token}` },
      { authorization: 'Bearer not-a-token' },
      { authorization: 'Bearer svc_live_unknown' },
      { cookie: `folio_access=${user.token}` },
    ];
    for (const headers of stale) {
      expect((await server.request('GET', '/api/health', { headers })).status).toBe(200);
      expect((await server.request('GET', '/api/ready', { headers })).status).toBe(200);
      expect((await server.request('GET', '/api/ai/status', { headers })).status).toBe(200);
      const login = await server.request('POST', '/api/auth/login', {
        headers,
        body: { email: user.email, password: user.password },
      });
      expect(login.status).toBe(200);
      // A route that needs the caller still refuses the same credentials.
      expect((await server.request('GET', '/api/auth/me', { headers })).status).toBe(401);
    }
    const register = await server.request('POST', '/api/auth/register', {
      headers: { authorization: `Bearer ${user.token}` },
      body: { name: 'Late', email: 'late@example.com', password: 'long enough', terms_accepted: true },
    });
    expect(register.status).toBe(201);
  });
});

describe('auth rate limit', () => {
  it('counts every /api/auth request of one IP: 20 per minute', async () => {
    const server = await startServer();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) {
        const res = await server.request('POST', '/api/auth/login', {
          body: { email: `nobody${i}@example.com`, password: 'whatever' },
          headers: { 'x-forwarded-for': '10.77.0.1' },
        });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
      expect(statuses[20]).toBe(429);
    } finally {
      await server.close();
    }
  });
});
