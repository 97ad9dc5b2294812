import type * as OpenIdClient from 'openid-client';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { importPackage } from '../../lib/import-package.js';

/** What a provider tells Folio about the person who signed in. */
export interface ExternalIdentity {
  subject: string;
  /** A verified address, or null when the provider vouches for none. */
  email: string | null;
  name: string;
}

/** The secrets of one started sign-in, kept server-side until its callback. */
export interface FlowSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** One identity provider: where to send the browser, and how to read its callback. */
export interface IdentityProvider {
  id: 'google' | 'github';
  name: string;
  authorizationUrl(redirectUri: string, secrets: FlowSecrets): Promise<URL>;
  /** Exchanges the code of `callbackUrl` and returns who signed in; throws on any failed check. */
  identify(callbackUrl: URL, secrets: FlowSecrets): Promise<ExternalIdentity>;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

let openIdClient: Promise<typeof OpenIdClient> | undefined;
/** openid-client loads on the first sign-in with a provider, not at start-up. */
const loadOpenIdClient = () => (openIdClient ??= importPackage<typeof OpenIdClient>('openid-client'));

/**
 * Provider URLs come from the operator. They must be https, except on a loopback
 * address (a provider run beside Folio, as in the tests).
 */
function providerUrl(value: string, variable: string): { url: URL; insecure: boolean } {
  const url = new URL(value);
  const insecure = url.protocol === 'http:';
  if (insecure && !LOOPBACK.has(url.hostname)) {
    throw new Error(`${variable} must be an https:// URL (plain http is accepted on loopback only)`);
  }
  return { url, insecure };
}

/** The provider's configuration from its discovery document. */
async function discover(
  url: URL,
  settings: { clientId: string; clientSecret: string },
  insecure: boolean,
): Promise<OpenIdClient.Configuration> {
  const oidc = await loadOpenIdClient();
  return oidc.discovery(url, settings.clientId, settings.clientSecret, undefined, {
    // The ID token's signature is checked against the issuer's JWKS even though it
    // comes straight from the token endpoint, where OpenID Connect would allow skipping it.
    execute: insecure
      ? [oidc.enableNonRepudiationChecks, oidc.allowInsecureRequests]
      : [oidc.enableNonRepudiationChecks],
  });
}

/**
 * Google, or any OpenID Connect provider found by discovery: the ID token's issuer,
 * audience, nonce, expiry and signature (from the issuer's JWKS) are checked by
 * openid-client, and PKCE (S256) binds the code to this flow.
 */
function openIdProvider(settings: {
  issuer: string;
  clientId: string;
  clientSecret: string;
}): IdentityProvider {
  const { url, insecure } = providerUrl(settings.issuer, 'OIDC_GOOGLE_ISSUER');
  let configuration: Promise<OpenIdClient.Configuration> | undefined;
  const configure = () =>
    (configuration ??= discover(url, settings, insecure).catch((error: unknown) => {
      configuration = undefined; // a provider that was down is asked again next time
      throw error;
    }));

  return {
    id: 'google',
    name: 'Google',
    async authorizationUrl(redirectUri, secrets) {
      const oidc = await loadOpenIdClient();
      return oidc.buildAuthorizationUrl(await configure(), {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        state: secrets.state,
        nonce: secrets.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(secrets.codeVerifier),
        code_challenge_method: 'S256',
      });
    },
    async identify(callbackUrl, secrets) {
      const oidc = await loadOpenIdClient();
      const tokens = await oidc.authorizationCodeGrant(await configure(), callbackUrl, {
        pkceCodeVerifier: secrets.codeVerifier,
        expectedState: secrets.state,
        expectedNonce: secrets.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (!idToken) throw new Error('The provider sent no ID token');
      // Google puts the email in the ID token; other providers answer it from userinfo only.
      const claims =
        typeof idToken.email === 'string'
          ? idToken
          : await oidc.fetchUserInfo(await configure(), tokens.access_token, idToken.sub);
      const email = typeof claims.email === 'string' && claims.email_verified === true ? claims.email : null;
      const name =
        typeof claims.name === 'string' && claims.name.trim() ? claims.name : (email ?? idToken.sub);
      return { subject: idToken.sub, email, name };
    },
  };
}

interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/**
 * GitHub: OAuth 2.0 (no ID token), then its REST API for the user and their
 * addresses (`user:email` scope reads them even when private). The primary address
 * is used when verified, otherwise any verified one.
 */
function gitHubProvider(settings: {
  baseUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}): IdentityProvider {
  const base = providerUrl(settings.baseUrl, 'OIDC_GITHUB_BASE_URL');
  const api = providerUrl(settings.apiUrl, 'OIDC_GITHUB_API_URL').url;
  const root = base.url.href.replace(/\/$/, '');
  let configuration: OpenIdClient.Configuration | undefined;
  /** GitHub publishes no discovery document: its two endpoints, written down. */
  async function configure() {
    const oidc = await loadOpenIdClient();
    if (!configuration) {
      configuration = new oidc.Configuration(
        {
          issuer: root,
          authorization_endpoint: `${root}/login/oauth/authorize`,
          token_endpoint: `${root}/login/oauth/access_token`,
        },
        settings.clientId,
        settings.clientSecret,
      );
      if (base.insecure) oidc.allowInsecureRequests(configuration);
    }
    return { oidc, configuration };
  }

  async function getJson<T>(path: string, accessToken: string): Promise<T> {
    const response = await fetch(new URL(path, api.href.endsWith('/') ? api : `${api.href}/`), {
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${accessToken}`,
        'user-agent': 'Folio',
      },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`GitHub answered ${response.status} for ${path}`);
    return (await response.json()) as T;
  }

  return {
    id: 'github',
    name: 'GitHub',
    async authorizationUrl(redirectUri, secrets) {
      const { oidc, configuration } = await configure();
      return oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: 'read:user user:email',
        state: secrets.state,
        code_challenge: await oidc.calculatePKCECodeChallenge(secrets.codeVerifier),
        code_challenge_method: 'S256',
      });
    },
    async identify(callbackUrl, secrets) {
      const { oidc, configuration } = await configure();
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: secrets.codeVerifier,
        expectedState: secrets.state,
      });
      const user = await getJson<{ id: number; login: string; name: string | null }>(
        'user',
        tokens.access_token,
      );
      const emails = await getJson<GitHubEmail[]>('user/emails', tokens.access_token);
      const verified = emails.filter((e) => e.verified);
      const email = (verified.find((e) => e.primary) ?? verified[0])?.email ?? null;
      return { subject: String(user.id), email, name: user.name?.trim() || user.login };
    },
  };
}

/** The providers the operator configured (client id and secret both set), by id. */
export function configuredProviders(config: Config['oidc']): Map<string, IdentityProvider> {
  const providers = new Map<string, IdentityProvider>();
  const { google, github } = config;
  if (google.clientId && google.clientSecret) {
    providers.set(
      'google',
      openIdProvider({ issuer: google.issuer, clientId: google.clientId, clientSecret: google.clientSecret }),
    );
  }
  if (github.clientId && github.clientSecret) {
    providers.set(
      'github',
      gitHubProvider({
        baseUrl: github.baseUrl,
        apiUrl: github.apiUrl,
        clientId: github.clientId,
        clientSecret: github.clientSecret,
      }),
    );
  }
  return providers;
}

/** A failed provider exchange, told to the person in words and never with a stack. */
export function providerFailure(error: unknown): AppError {
  // openid-client's AuthorizationResponseError carries the provider's `error` code.
  if ((error as { error?: unknown }).error === 'access_denied') {
    return new AppError('UNAUTHORIZED', 'Sign-in was cancelled at the provider.');
  }
  return new AppError('UNAUTHORIZED', 'The sign-in could not be verified. Please try again.');
}
