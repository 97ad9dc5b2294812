/**
 * Sign-in with identity providers, end to end over HTTP: Folio against a certified
 * OpenID provider (oidc-provider) and a server speaking GitHub's wire format, both on
 * loopback, driven by a cookie-keeping client as a browser would.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Browser,
  startFakeGitHub,
  startOidcProvider,
  startRogueIssuer,
  type GitHubUser,
  type RunningServer,
} from '../helpers/identity-providers.js';
import { freePort } from '../helpers/ports.js';
import { startServer, type TestServer } from '../helpers/server.js';

const CLIENT = { id: 'folio-test', secret: 'folio-test-secret-0123456789' };

/** Folio on a port known in advance, so the providers can be told its callback URL. */
async function folioWith(env: (folioUrl: string) => Record<string, string>) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return { url, start: () => startServer({ env: { PORT: String(port), PUBLIC_URL: url, ...env(url) } }) };
}

/** Starts a sign-in in `browser` and follows it to the web app's claim page; answers that URL. */
async function signInAt(folio: TestServer, browser: Browser, provider: string, login?: string): Promise<URL> {
  const started = await browser.fetch(`${folio.url}/api/auth/oidc/${provider}`, { method: 'POST' });
  expect(started.status).toBe(200);
  const { url } = (await started.json()) as { url: string };
  return browser.navigate(url, { ...(login ? { login } : {}), stopAt: `${folio.url}/login` });
}

let callers = 0;
/** POST /api/auth/oidc/claim from an address of its own (the auth bucket counts per IP). */
const claim = (folio: TestServer, body: unknown) =>
  folio.request('POST', '/api/auth/oidc/claim', {
    body,
    headers: { 'x-forwarded-for': `10.2.${++callers >> 8}.${callers & 255}` },
  });

const claimCode = (landing: URL) => {
  expect(landing.searchParams.get('error')).toBeNull();
  expect(landing.pathname).toBe('/login/oidc');
  return landing.searchParams.get('code')!;
};

describe('OpenID Connect sign-in (oidc-provider on loopback)', () => {
  let idp: RunningServer;
  let folio: TestServer;

  beforeAll(async () => {
    const planned = await folioWith(() => ({}));
    idp = await startOidcProvider({
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      redirectUri: `${planned.url}/api/auth/oidc/google/callback`,
      accounts: [
        { id: 'alice', email: 'alice@example.com', name: 'Alice Liddell' },
        { id: 'bob-at-idp', email: 'bob@example.com', name: 'Bob' },
        { id: 'unverified', email: 'eve@example.com', email_verified: false, name: 'Eve' },
      ],
    });
    folio = await startServer({
      env: {
        PORT: planned.url.split(':').pop()!,
        PUBLIC_URL: planned.url,
        OIDC_GOOGLE_CLIENT_ID: CLIENT.id,
        OIDC_GOOGLE_CLIENT_SECRET: CLIENT.secret,
        OIDC_GOOGLE_ISSUER: idp.url,
        LOG_LEVEL: process.env.DEBUG_OIDC ? 'warn' : 'silent',
      },
    });
  });
  afterAll(async () => {
    await folio?.close();
    await idp?.close();
  });

  it('lists the configured provider, and passkeys as off', async () => {
    const res = await folio.request('GET', '/api/auth/providers');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ providers: [{ id: 'google', name: 'Google' }], passkeys: false });
  });

  it('answers 404 for a provider that is not configured', async () => {
    const res = await folio.request('POST', '/api/auth/oidc/github');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('NOT_FOUND');
  });

  it('starts with state, nonce and S256 PKCE, bound to the browser by an HttpOnly cookie', async () => {
    const browser = new Browser();
    const res = await browser.fetch(`${folio.url}/api/auth/oidc/google`, { method: 'POST' });
    const { url } = (await res.json()) as { url: string };
    const auth = new URL(url);
    expect(auth.origin).toBe(idp.url);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    for (const p of ['state', 'nonce', 'code_challenge']) expect(auth.searchParams.get(p)).toMatch(/.{20,}/);
    expect(auth.searchParams.get('redirect_uri')).toBe(`${folio.url}/api/auth/oidc/google/callback`);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('folio_oidc='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);

    const form = await browser.fetch(`${folio.url}/api/auth/oidc/google`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(form.status).toBe(303);
    expect(new URL(form.headers.get('location')!).origin).toBe(idp.url);
  });

  it('creates a new user with an organization and starter workspace, once the terms are accepted', async () => {
    const browser = new Browser();
    const code = claimCode(await signInAt(folio, browser, 'google', 'alice'));

    const withoutTerms = await claim(folio, { code });
    expect(withoutTerms.status).toBe(400);
    expect(withoutTerms.body.details).toMatchObject({ field: 'terms_accepted' });

    const claimed = await claim(folio, { code, terms_accepted: true });
    expect(claimed.status).toBe(200);
    expect(Object.keys(claimed.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token']);
    expect(claimed.headers.getSetCookie().some((c) => c.startsWith('folio_access='))).toBe(true);

    const me = await folio.request('GET', '/api/auth/me', { token: claimed.body.access_token });
    expect(me.body).toMatchObject({ email: 'alice@example.com', name: 'Alice Liddell', role: 'superadmin' });
    const workspaces = await folio.request('GET', '/api/v1/workspaces', { token: claimed.body.access_token });
    expect(workspaces.body.data).toHaveLength(1);
    expect(workspaces.body.data[0].name).toBe('Docs');

    const identities = await folio.request('GET', '/api/auth/identities', {
      token: claimed.body.access_token,
    });
    expect(identities.body.data).toEqual([
      expect.objectContaining({ provider: 'google', email: 'alice@example.com' }),
    ]);
    // No password was set, so the only sign-in method cannot be unlinked.
    const unlink = await folio.request('DELETE', `/api/auth/identities/${identities.body.data[0].id}`, {
      token: claimed.body.access_token,
    });
    expect(unlink.status).toBe(409);

    // A returning user signs straight in, to the same account, with no terms asked again.
    const again = claimCode(await signInAt(folio, new Browser(), 'google', 'alice'));
    const second = await claim(folio, { code: again });
    expect(second.status).toBe(200);
    const meAgain = await folio.request('GET', '/api/auth/me', { token: second.body.access_token });
    expect(meAgain.body.id).toBe(me.body.id);
  });

  it('refuses a claim code used twice', async () => {
    const code = claimCode(await signInAt(folio, new Browser(), 'google', 'alice'));
    expect((await claim(folio, { code })).status).toBe(200);
    const replay = await claim(folio, { code });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('UNAUTHORIZED');
  });

  it('does not link an email that an account already has until its owner signs in and confirms', async () => {
    const reg = await folio.request('POST', '/api/auth/register', {
      body: { name: 'Bob', email: 'bob@example.com', password: 'bobs password', terms_accepted: true },
    });
    expect(reg.status).toBe(201);
    const code = claimCode(await signInAt(folio, new Browser(), 'google', 'bob-at-idp'));
    const refused = await claim(folio, { code, terms_accepted: true });
    expect(refused.status).toBe(409);
    expect(refused.body.details).toMatchObject({ reason: 'link_required', email: 'bob@example.com' });

    // Someone else who is signed in cannot take the link.
    const alice = await signedInAs('alice');
    const stolen = await folio.request('POST', '/api/auth/oidc/link', { body: { code }, token: alice });
    expect(stolen.status).toBe(403);

    const login = await folio.request('POST', '/api/auth/login', {
      body: { email: 'bob@example.com', password: 'bobs password' },
    });
    const linked = await folio.request('POST', '/api/auth/oidc/link', {
      body: { code },
      token: login.body.access_token,
    });
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual({ provider: 'google', email: 'bob@example.com' });

    const next = claimCode(await signInAt(folio, new Browser(), 'google', 'bob-at-idp'));
    const signedIn = await claim(folio, { code: next });
    expect(signedIn.status).toBe(200);
    const me = await folio.request('GET', '/api/auth/me', { token: signedIn.body.access_token });
    expect(me.body.id).toBe(reg.body.user.id);
  });

  it('signs nobody in whose provider does not vouch for their email', async () => {
    const landing = await signInAt(folio, new Browser(), 'google', 'unverified');
    expect(landing.pathname).toBe('/login');
    expect(landing.searchParams.get('error')).toMatch(/verified email/);
  });

  it('refuses a tampered state and a callback from another browser, with a readable message', async () => {
    const browser = new Browser();
    const started = await browser.fetch(`${folio.url}/api/auth/oidc/google`, { method: 'POST' });
    const { url } = (await started.json()) as { url: string };
    const callback = await browser.navigate(url, {
      login: 'alice',
      stopAt: `${folio.url}/api/auth/oidc/google/callback`,
    });

    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    const bad = await browser.fetch(tampered.href);
    expect(bad.status).toBe(302);
    const badLanding = new URL(bad.headers.get('location')!, folio.url);
    expect(badLanding.pathname).toBe('/login');
    expect(badLanding.searchParams.get('error')).toMatch(/expired or was started elsewhere/);

    // The real callback, but from a browser without the flow's cookie.
    const elsewhere = await new Browser().fetch(callback.href);
    expect(new URL(elsewhere.headers.get('location')!, folio.url).searchParams.get('error')).toMatch(
      /started elsewhere/,
    );
    // And the flow was used up by that attempt: the right browser cannot complete it afterwards either.
    const late = await browser.fetch(callback.href);
    expect(new URL(late.headers.get('location')!, folio.url).pathname).toBe('/login');
  });

  async function signedInAs(login: string): Promise<string> {
    const code = claimCode(await signInAt(folio, new Browser(), 'google', login));
    const res = await claim(folio, { code, terms_accepted: true });
    return res.body.access_token as string;
  }
});

describe('consent declined at the provider', () => {
  let issuer: RunningServer;
  let folio: TestServer;
  afterAll(async () => {
    await folio?.close();
    await issuer?.close();
  });

  it('lands on the sign-in page with a sentence saying so', async () => {
    issuer = await startRogueIssuer({ flaw: 'consent-denied', clientId: CLIENT.id });
    const planned = await folioWith(() => ({
      OIDC_GOOGLE_CLIENT_ID: CLIENT.id,
      OIDC_GOOGLE_CLIENT_SECRET: CLIENT.secret,
      OIDC_GOOGLE_ISSUER: issuer.url,
    }));
    folio = await planned.start();
    const landing = await signInAt(folio, new Browser(), 'google');
    expect(landing.pathname).toBe('/login');
    expect(landing.searchParams.get('error')).toBe('Sign-in was cancelled at the provider.');
  });
});

describe.each(['foreign-key', 'wrong-nonce'] as const)('an ID token with a %s', (flaw) => {
  let issuer: RunningServer;
  let folio: TestServer;
  afterEach(async () => {
    await folio?.close();
    await issuer?.close();
  });

  it('is refused, and nobody is signed in', async () => {
    issuer = await startRogueIssuer({ flaw, clientId: CLIENT.id });
    const planned = await folioWith(() => ({
      OIDC_GOOGLE_CLIENT_ID: CLIENT.id,
      OIDC_GOOGLE_CLIENT_SECRET: CLIENT.secret,
      OIDC_GOOGLE_ISSUER: issuer.url,
    }));
    folio = await planned.start();
    const landing = await signInAt(folio, new Browser(), 'google');
    expect(landing.pathname).toBe('/login');
    expect(landing.searchParams.get('error')).toBe('The sign-in could not be verified. Please try again.');
  });
});

describe('GitHub sign-in (GitHub wire format on loopback)', () => {
  let github: RunningServer;
  let folio: TestServer;
  let next: GitHubUser;

  beforeAll(async () => {
    github = await startFakeGitHub({
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      nextUser: () => next,
    });
    const planned = await folioWith(() => ({
      OIDC_GITHUB_CLIENT_ID: CLIENT.id,
      OIDC_GITHUB_CLIENT_SECRET: CLIENT.secret,
      OIDC_GITHUB_BASE_URL: github.url,
      OIDC_GITHUB_API_URL: github.url,
    }));
    folio = await planned.start();
  });
  afterAll(async () => {
    await folio?.close();
    await github?.close();
  });

  it('uses a verified address when the primary one is not verified', async () => {
    next = {
      id: 4242,
      login: 'octo',
      name: null,
      emails: [
        { email: 'octo-primary@example.com', primary: true, verified: false },
        { email: 'octo@example.com', primary: false, verified: true },
      ],
    };
    const code = claimCode(await signInAt(folio, new Browser(), 'github'));
    const claimed = await claim(folio, { code, terms_accepted: true });
    expect(claimed.status).toBe(200);
    const me = await folio.request('GET', '/api/auth/me', { token: claimed.body.access_token });
    expect(me.body).toMatchObject({ email: 'octo@example.com', name: 'octo' });
  });

  it('signs nobody in without a verified address', async () => {
    next = {
      id: 7,
      login: 'ghost',
      name: 'Ghost',
      emails: [{ email: 'ghost@example.com', primary: true, verified: false }],
    };
    const landing = await signInAt(folio, new Browser(), 'github');
    expect(landing.pathname).toBe('/login');
    expect(landing.searchParams.get('error')).toMatch(/GitHub did not share a verified email/);
  });
});
