/**
 * Identity providers on loopback for the sign-in tests: a certified OpenID provider
 * (oidc-provider), a server speaking GitHub's OAuth and REST wire format, and a rogue
 * issuer whose ID tokens fail one check. Plus a small cookie-keeping browser that
 * follows redirects and submits the provider's sign-in and consent forms.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider from 'oidc-provider';

export interface Account {
  id: string;
  email: string;
  email_verified?: boolean;
  name: string;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function closer(server: http.Server) {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/** oidc-provider with its development sign-in screens; any password is accepted for a known login. */
export async function startOidcProvider(options: {
  accounts: Account[];
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}): Promise<RunningServer> {
  const server = http.createServer();
  const url = await listen(server);
  const provider = new Provider(url, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['folio-test-cookie-key'] },
    // Explicit lifetimes (seconds), so the provider does not print a notice at every use of its defaults.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, id) => {
      const account = options.accounts.find((a) => a.id === id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: account.email,
          email_verified: account.email_verified ?? true,
          name: account.name,
        }),
      };
    },
  });
  provider.on('server_error', (_ctx, error) => console.error('oidc-provider:', error));
  server.on('request', provider.callback());
  return { url, close: closer(server) };
}

export interface GitHubUser {
  id: number;
  login: string;
  name: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

/**
 * GitHub's wire format: `/login/oauth/authorize` (signs in `nextUser()` at once),
 * `/login/oauth/access_token` (form-encoded, answers JSON when asked), `/user` and
 * `/user/emails` with a Bearer token.
 */
export async function startFakeGitHub(options: {
  clientId: string;
  clientSecret: string;
  nextUser: () => GitHubUser;
}): Promise<RunningServer> {
  const codes = new Map<string, GitHubUser>();
  const tokens = new Map<string, GitHubUser>();
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://github.invalid');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/login/oauth/authorize') {
      if (url.searchParams.get('client_id') !== options.clientId) return json(404, { message: 'Not Found' });
      const code = `code-${Math.random().toString(36).slice(2)}`;
      codes.set(code, options.nextUser());
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state')!);
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const form = new URLSearchParams(raw);
      const user = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!user || form.get('client_secret') !== options.clientSecret) {
        return json(200, {
          error: 'bad_verification_code',
          error_description: 'The code passed is incorrect.',
        });
      }
      const token = `gho_${Math.random().toString(36).slice(2)}`;
      tokens.set(token, user);
      return json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    const user = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!user) return json(401, { message: 'Requires authentication' });
    if (url.pathname === '/user') return json(200, { id: user.id, login: user.login, name: user.name });
    if (url.pathname === '/user/emails')
      return json(
        200,
        user.emails.map((e) => ({ ...e, visibility: null })),
      );
    return json(404, { message: 'Not Found' });
  });
  return { url: await listen(server), close: closer(server) };
}

/**
 * An issuer that signs in anyone but whose ID tokens fail one check: signed by a key
 * that is not in its JWKS, or carrying another nonce than the one asked for; or one
 * where the person declines consent.
 */
export async function startRogueIssuer(options: {
  flaw: 'foreign-key' | 'wrong-nonce' | 'consent-denied';
  clientId: string;
}): Promise<RunningServer> {
  const published = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(published.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const nonces = new Map<string, string>();
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url!, issuer);
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (url.pathname === '/jwks') return json({ keys: [jwk] });
    if (url.pathname === '/auth') {
      const code = `c${Math.random().toString(36).slice(2)}`;
      nonces.set(code, url.searchParams.get('nonce') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri')!);
      if (options.flaw === 'consent-denied') {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The user declined');
      } else back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state')!);
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === '/token') {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const code = new URLSearchParams(raw).get('code') ?? '';
      const nonce = options.flaw === 'wrong-nonce' ? 'not-the-nonce-folio-sent' : nonces.get(code);
      const idToken = await new SignJWT({ nonce, email: 'mallory@example.com', email_verified: true })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(issuer)
        .setAudience(options.clientId)
        .setSubject('mallory')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(options.flaw === 'foreign-key' ? foreign.privateKey : published.privateKey);
      return json({ access_token: 'at', token_type: 'Bearer', expires_in: 300, id_token: idToken });
    }
    res.writeHead(404).end();
  });
  const issuer = await listen(server);
  return { url: issuer, close: closer(server) };
}

/** A browser's cookie jar and redirect following, enough for sign-in flows. */
let browsers = 0;

export class Browser {
  private jar = new Map<string, Map<string, string>>();
  /** Each browser comes from its own address, as people do (the auth bucket counts per IP). */
  readonly ip = `10.1.${++browsers >> 8}.${browsers & 255}`;

  private store(url: URL, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const cookies = this.jar.get(url.host) ?? new Map<string, string>();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
      this.jar.set(url.host, cookies);
    }
  }

  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name);
  }

  forget(host: string, name: string): void {
    this.jar.get(host)?.delete(name);
  }

  /** One request with this browser's cookies; redirects are not followed. */
  async fetch(input: string, init: RequestInit = {}): Promise<Response> {
    const url = new URL(input);
    const cookies = [...(this.jar.get(url.host) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`);
    const headers = new Headers(init.headers);
    if (cookies.length) headers.set('cookie', cookies.join('; '));
    headers.set('x-forwarded-for', this.ip);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(url, response);
    return response;
  }

  /**
   * Follows redirects from `start`, submitting the provider's forms (logging in as
   * `login`), until a redirect points at `stopAt`'s origin and path prefix; answers that URL.
   */
  async navigate(start: string, options: { login?: string; stopAt: string }): Promise<URL> {
    let next: { url: string; init?: RequestInit } = { url: start };
    for (let hops = 0; hops < 20; hops++) {
      const response = await this.fetch(next.url, next.init);
      const location = response.headers.get('location');
      if (location) {
        const target = new URL(location, next.url);
        if (target.href.startsWith(options.stopAt)) return target;
        next = { url: target.href };
        continue;
      }
      const html = await response.text();
      const form = /<form[^>]*action="([^"]+)"[^>]*method="post"/i.exec(html);
      if (!form)
        throw new Error(`No redirect and no form at ${next.url} (${response.status}): ${html.slice(0, 200)}`);
      const fields = new URLSearchParams();
      for (const input of html.matchAll(/<input[^>]*name="([^"]+)"(?:[^>]*value="([^"]*)")?/gi)) {
        fields.set(input[1]!, input[2] ?? '');
      }
      if (fields.has('login')) fields.set('login', options.login ?? '');
      if (fields.has('password')) fields.set('password', 'any password');
      next = {
        url: new URL(form[1]!, next.url).href,
        init: {
          method: 'POST',
          body: fields,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
      };
    }
    throw new Error('Too many redirects');
  }
}
