/**
 * Passkeys over HTTP with a software authenticator that makes real attestations and
 * assertions: registration, sign-in with and without an email hint, managing the
 * stored passkeys, and the refusals (replay, wrong origin, a counter that goes back,
 * used or expired challenges, a locked account, and every route 404 when passkeys are off).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { SoftAuthenticator } from './passkeys-authenticator.js';

const ORIGIN = 'https://docs.example.test';
const PASSKEY_ENV = {
  WEBAUTHN_RP_ID: 'docs.example.test',
  WEBAUTHN_RP_DISPLAY_NAME: 'Folio Docs',
  WEBAUTHN_RP_ORIGINS: `${ORIGIN}, http://localhost:5173`,
};

let callers = 0;
/** Each call from its own address: the auth bucket counts per IP. */
const fromNewIp = () => ({ 'x-forwarded-for': `10.9.${++callers >> 8}.${callers & 255}` });

describeEachDatabase('passkeys on $name', (target) => {
  const clock = manualClock(new Date());
  let server: TestServer;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const db = await target.prepare();
    cleanup = db.cleanup;
    server = await startServer({
      clock,
      env: { ...db.env, ...PASSKEY_ENV },
      ...(db.pgSchema ? { pgSchema: db.pgSchema } : {}),
    });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  const call = (method: string, path: string, body?: unknown, token?: string) =>
    server.request(method, path, {
      ...(body === undefined ? {} : { body }),
      ...(token ? { token } : {}),
      headers: fromNewIp(),
    });

  /** Registers a passkey for `user` on `authenticator`; answers the finish response. */
  async function register(user: TestUser, authenticator: SoftAuthenticator, name?: string) {
    const begun = await call('POST', '/api/auth/webauthn/register/begin', {}, user.token);
    expect(begun.status).toBe(200);
    return call(
      'POST',
      '/api/auth/webauthn/register/finish',
      { response: authenticator.create(begun.body), ...(name ? { name } : {}) },
      user.token,
    );
  }

  async function beginLogin(email?: string) {
    const begun = await call('POST', '/api/auth/webauthn/login/begin', email ? { email } : {});
    expect(begun.status).toBe(200);
    return begun.body as { challenge: string; rpId: string; allowCredentials?: { id: string }[] };
  }

  it('registers a passkey with the options WebAuthn needs, and lists it', async () => {
    const user = await registerUser(server);
    const begun = await call('POST', '/api/auth/webauthn/register/begin', {}, user.token);
    expect(begun.status).toBe(200);
    expect(begun.body.rp).toEqual({ id: 'docs.example.test', name: 'Folio Docs' });
    expect(begun.body.user.name).toBe(user.email);
    expect(begun.body.authenticatorSelection).toMatchObject({
      residentKey: 'preferred',
      userVerification: 'required',
    });
    const authenticator = new SoftAuthenticator(ORIGIN);
    const finished = await call(
      'POST',
      '/api/auth/webauthn/register/finish',
      { response: authenticator.create(begun.body), name: 'Laptop' },
      user.token,
    );
    expect(finished.status).toBe(201);
    expect(finished.body).toMatchObject({ name: 'Laptop', device_type: 'singleDevice', backed_up: false });

    const listed = await call('GET', '/api/auth/webauthn/credentials', undefined, user.token);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      data: [
        {
          id: finished.body.id,
          name: 'Laptop',
          created_at: expect.any(String),
          last_used_at: null,
          device_type: 'singleDevice',
          backed_up: false,
        },
      ],
      next_cursor: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain('public');
  });

  it('signs in with a discoverable passkey exactly as a password sign-in answers', async () => {
    const user = await registerUser(server);
    const authenticator = new SoftAuthenticator(ORIGIN);
    expect((await register(user, authenticator)).status).toBe(201);

    const options = await beginLogin();
    expect(options.rpId).toBe('docs.example.test');
    expect(options.allowCredentials ?? []).toEqual([]);
    const res = await call('POST', '/api/auth/webauthn/login/finish', {
      response: authenticator.get(options),
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token']);
    const cookies = res.headers.getSetCookie().join('\n');
    expect(cookies).toMatch(/folio_access=.*HttpOnly.*SameSite=Strict/);
    expect(cookies).toMatch(/folio_refresh=/);
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();

    const me = await call('GET', '/api/auth/me', undefined, res.body.access_token);
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(user.email);
    const listed = await call('GET', '/api/auth/webauthn/credentials', undefined, user.token);
    expect(listed.body.data[0].last_used_at).not.toBeNull();
  });

  it('answers an email hint the same for an account with a passkey and an unknown email', async () => {
    const alice = await registerUser(server);
    const bob = await registerUser(server);
    const aliceKey = new SoftAuthenticator(ORIGIN);
    const bobKey = new SoftAuthenticator(ORIGIN);
    await register(alice, aliceKey);
    await register(bob, bobKey);

    const answers = await Promise.all(
      [alice.email.toUpperCase(), 'nobody-here@example.com', undefined].map((email) =>
        call('POST', '/api/auth/webauthn/login/begin', email ? { email } : {}),
      ),
    );
    const shapes = answers.map((a) => ({
      status: a.status,
      body: { ...a.body, challenge: typeof a.body.challenge },
      type: a.headers.get('content-type'),
    }));
    // A discoverable challenge for everyone: no list of credentials to tell accounts apart.
    expect(shapes[0]).toEqual(shapes[1]);
    expect(shapes[0]).toEqual(shapes[2]);
    expect(answers[0]!.body).not.toHaveProperty('allowCredentials');

    // The hint still binds the challenge: only that account's passkey finishes it.
    const options = answers[0]!.body as Parameters<SoftAuthenticator['get']>[0];
    const wrong = await call('POST', '/api/auth/webauthn/login/finish', { response: bobKey.get(options) });
    expect(wrong.status).toBe(401);
    const again = await beginLogin(alice.email);
    const right = await call('POST', '/api/auth/webauthn/login/finish', { response: aliceKey.get(again) });
    expect(right.status).toBe(200);

    // An unknown email's challenge is finished by no passkey, refused as a wrong account's is.
    const unknown = await beginLogin('nobody-here@example.com');
    const stranger = await call('POST', '/api/auth/webauthn/login/finish', { response: bobKey.get(unknown) });
    expect(stranger.status).toBe(wrong.status);
    expect(stranger.body.error).toBe(wrong.body.error);
    expect(stranger.body.message).toBe(wrong.body.message);
  });

  it('refuses a replayed assertion, a wrong origin and a counter that does not grow', async () => {
    const user = await registerUser(server);
    const authenticator = new SoftAuthenticator(ORIGIN);
    await register(user, authenticator);

    const options = await beginLogin();
    const assertion = authenticator.get(options);
    expect((await call('POST', '/api/auth/webauthn/login/finish', { response: assertion })).status).toBe(200);
    const replayed = await call('POST', '/api/auth/webauthn/login/finish', { response: assertion });
    expect(replayed.status).toBe(401);
    expect(replayed.body.error).toBe('UNAUTHORIZED');
    // A fresh signature (a higher counter) on the spent challenge is refused too: one use each.
    const reused = authenticator.get(options);
    expect((await call('POST', '/api/auth/webauthn/login/finish', { response: reused })).status).toBe(401);

    const elsewhere = await beginLogin();
    const phished = authenticator.get(elsewhere, { origin: 'https://docs.example.test.evil.example' });
    expect((await call('POST', '/api/auth/webauthn/login/finish', { response: phished })).status).toBe(401);

    // The server saw counter 1 at the last accepted use; a clone answering lower, or the same, is refused.
    const cloned = authenticator.get(await beginLogin(), { counter: 0 });
    expect((await call('POST', '/api/auth/webauthn/login/finish', { response: cloned })).status).toBe(401);
    const same = authenticator.get(await beginLogin(), { counter: 1 });
    expect((await call('POST', '/api/auth/webauthn/login/finish', { response: same })).status).toBe(401);
    // The real authenticator, ahead of both, still signs in.
    const real = authenticator.get(await beginLogin(), { counter: 10 });
    expect((await call('POST', '/api/auth/webauthn/login/finish', { response: real })).status).toBe(200);
  });

  it('refuses a registration from a wrong origin or on a used challenge', async () => {
    const user = await registerUser(server);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const begun = await call('POST', '/api/auth/webauthn/register/begin', {}, user.token);
    const phished = authenticator.create(begun.body, { origin: 'https://evil.example' });
    const refused = await call(
      'POST',
      '/api/auth/webauthn/register/finish',
      { response: phished },
      user.token,
    );
    expect(refused.status).toBe(401);
    // The challenge was spent by that attempt, whatever its outcome.
    const retried = await call(
      'POST',
      '/api/auth/webauthn/register/finish',
      { response: authenticator.create(begun.body) },
      user.token,
    );
    expect(retried.status).toBe(401);
    const listed = await call('GET', '/api/auth/webauthn/credentials', undefined, user.token);
    expect(listed.body.data).toEqual([]);
  });

  it('refuses a challenge after five minutes, and one begun for another user', async () => {
    const user = await registerUser(server);
    const other = await registerUser(server);
    const authenticator = new SoftAuthenticator(ORIGIN);
    await register(user, authenticator);

    const options = await beginLogin();
    clock.advance(5 * 60 * 1000 + 1000);
    const late = await call('POST', '/api/auth/webauthn/login/finish', {
      response: authenticator.get(options),
    });
    expect(late.status).toBe(401);

    const begun = await call('POST', '/api/auth/webauthn/register/begin', {}, user.token);
    const stolen = await call(
      'POST',
      '/api/auth/webauthn/register/finish',
      { response: new SoftAuthenticator(ORIGIN).create(begun.body) },
      other.token,
    );
    expect(stolen.status).toBe(401);
  });

  it('locks the account after five failed passkey sign-ins, as for passwords', async () => {
    const user = await registerUser(server);
    const authenticator = new SoftAuthenticator(ORIGIN);
    await register(user, authenticator);
    for (let i = 0; i < 5; i++) {
      const bad = authenticator.get(await beginLogin(), { origin: 'https://evil.example' });
      expect((await call('POST', '/api/auth/webauthn/login/finish', { response: bad })).status).toBe(401);
    }
    const good = authenticator.get(await beginLogin());
    const locked = await call('POST', '/api/auth/webauthn/login/finish', { response: good });
    expect(locked.status).toBe(429);
    const password = await call('POST', '/api/auth/login', { email: user.email, password: user.password });
    expect(password.status).toBe(429);
    clock.advance(15 * 60 * 1000 + 1000);
    const after = authenticator.get(await beginLogin());
    expect((await call('POST', '/api/auth/webauthn/login/finish', { response: after })).status).toBe(200);
  });

  it('renames and deletes a passkey; another user cannot touch it; a deleted one signs nobody in', async () => {
    const user = await registerUser(server);
    const other = await registerUser(server);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const created = (await register(user, authenticator)).body as { id: string };
    const path = `/api/auth/webauthn/credentials/${created.id}`;

    expect((await call('PATCH', path, { name: 'x' }, other.token)).status).toBe(404);
    expect((await call('DELETE', path, undefined, other.token)).status).toBe(404);
    expect((await call('PATCH', path, { name: '  ' }, user.token)).status).toBe(400);
    const renamed = await call('PATCH', path, { name: 'Phone' }, user.token);
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Phone');

    expect((await call('DELETE', path, undefined, user.token)).status).toBe(204);
    const listed = await call('GET', '/api/auth/webauthn/credentials', undefined, user.token);
    expect(listed.body.data).toEqual([]);
    const orphan = authenticator.get(await beginLogin());
    expect((await call('POST', '/api/auth/webauthn/login/finish', { response: orphan })).status).toBe(401);
  });

  it('keeps one way to sign in: a passkey lets a passwordless user unlink a provider, not delete it last', async () => {
    const user = await registerUser(server);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const created = (await register(user, authenticator)).body as { id: string };
    // A passwordless account with a linked provider, as a first provider sign-in makes it.
    const db = server.folio.store.db;
    await db.updateTable('users').set({ password_hash: null }).where('id', '=', user.id).execute();
    const now = new Date().toISOString();
    await db
      .insertInto('user_identities')
      .values({
        id: `identity-${user.id}`,
        user_id: user.id,
        provider: 'google',
        subject: `subject-${user.id}`,
        email: user.email,
        created_at: now,
        last_used_at: now,
      })
      .execute();

    // With the provider still linked, the passkey may go; put it back and unlink the provider.
    const path = `/api/auth/webauthn/credentials/${created.id}`;
    expect((await call('DELETE', path, undefined, user.token)).status).toBe(204);
    const again = (await register(user, new SoftAuthenticator(ORIGIN))).body as { id: string };
    const unlinked = await call('DELETE', `/api/auth/identities/identity-${user.id}`, undefined, user.token);
    expect(unlinked.status).toBe(204);
    // Now the passkey is the only way in.
    const last = await call('DELETE', `/api/auth/webauthn/credentials/${again.id}`, undefined, user.token);
    expect(last.status).toBe(409);
  });

  it('does not let an API key register a passkey', async () => {
    const user = await registerUser(server);
    const key = await call('POST', '/api/v1/api-keys', { name: 'ci', scopes: ['admin'] }, user.token);
    expect(key.status).toBe(201);
    const secret = key.body.key ?? key.body.token ?? key.body.secret;
    const begun = await call('POST', '/api/auth/webauthn/register/begin', {}, secret);
    expect(begun.status).toBe(403);
  });
});

describe('passkeys off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers 404 on every passkey route and says so in the providers list', async () => {
    const user = await registerUser(server);
    const routes: [string, string][] = [
      ['POST', '/api/auth/webauthn/register/begin'],
      ['POST', '/api/auth/webauthn/register/finish'],
      ['POST', '/api/auth/webauthn/login/begin'],
      ['POST', '/api/auth/webauthn/login/finish'],
      ['GET', '/api/auth/webauthn/credentials'],
      ['PATCH', '/api/auth/webauthn/credentials/x'],
      ['DELETE', '/api/auth/webauthn/credentials/x'],
    ];
    for (const [method, path] of routes) {
      for (const token of [user.token, undefined]) {
        const res = await server.request(method, path, {
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
          ...(token ? { token } : {}),
          headers: fromNewIp(),
        });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error).toBe('NOT_FOUND');
      }
    }
    const providers = await server.request('GET', '/api/auth/providers');
    expect(providers.body.passkeys).toBe(false);
  });
});
