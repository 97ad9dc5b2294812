import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.js';
import { claimInput, linkInput } from '../../services/identity/index.js';
import type { Services } from '../../services/index.js';
import { clientInfo, requireActor, requireSignedIn } from '../auth-context.js';
import { z } from 'zod';
import { noContent } from '../../contract/answers.js';
import {
  identityLinked,
  linkedIdentityList,
  providerRedirect,
  signInProviders,
  tokenPair,
} from '../../contract/auth.js';
import { setSessionCookies } from '../cookies.js';
import { ownScope } from '../route-scopes.js';

const AUTH = { rateLimit: 'auth' } as const;
/** Sign-in steps: stale credentials a browser still sends must not get in their way. */
const SIGN_IN = { rateLimit: 'auth', auth: 'none' } as const;
const FLOW_COOKIE = 'folio_oidc';
/**
 * The flow cookie must come back on the provider's redirect, a cross-site top-level
 * navigation that SameSite=Strict cookies do not survive; Lax does, and the cookie only
 * binds a ten-minute flow to this browser (the session cookies stay Strict).
 */
const FLOW_COOKIE_OPTIONS = {
  httpOnly: true,
  secure: true,
  sameSite: 'lax',
  path: '/api/auth/oidc',
} as const;

/** Where the web app takes over after a provider's callback. */
const APP_CLAIM_PATH = '/login/oidc';

/** Sign-in with identity providers: start, callback, claim, link, identities. */
export function identityProviderRoutes(services: Services) {
  const { externalSignIn } = services;
  return ownScope((scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    // "Continue with …" buttons may be plain HTML forms that post nothing.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, _body, done) => done(null, {}),
    );

    const providers = { response: { 200: signInProviders } };
    app.get('/api/auth/providers', { config: SIGN_IN, schema: providers }, async () => externalSignIn.list());

    app.post(
      '/api/auth/oidc/:provider',
      {
        config: SIGN_IN,
        schema: {
          params: z.object({ provider: z.string() }),
          response: {
            200: providerRedirect,
            303: z.null().describe('A plain HTML form post is redirected to the provider'),
          },
        },
      },
      async (request, reply) => {
        const { url, binding } = await externalSignIn.start(request.params.provider);
        reply.setCookie(FLOW_COOKIE, binding, { ...FLOW_COOKIE_OPTIONS, maxAge: 600 });
        const fromForm = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded');
        return fromForm ? reply.redirect(url, 303) : { url };
      },
    );

    app.get<{ Params: { provider: string } }>(
      '/api/auth/oidc/:provider/callback',
      {
        config: SIGN_IN,
        schema: {
          response: {
            302: z
              .null()
              .describe(
                'Redirects the browser to /login/oidc?code=…, or to /login?error=… when the sign-in failed',
              ),
          },
        },
      },
      async (request, reply) => {
        const query = new URL(request.url, 'http://folio.invalid').searchParams;
        reply.clearCookie(FLOW_COOKIE, FLOW_COOKIE_OPTIONS);
        try {
          const code = await externalSignIn.callback(
            request.params.provider,
            query,
            request.cookies[FLOW_COOKIE],
          );
          return reply.redirect(`${APP_CLAIM_PATH}?code=${encodeURIComponent(code)}`, 302);
        } catch (error) {
          if (!(error instanceof AppError) || error.code === 'NOT_FOUND') throw error;
          return redirectWithError(reply, error.message);
        }
      },
    );

    const claim = { body: claimInput, response: { 200: tokenPair } };
    app.post('/api/auth/oidc/claim', { config: SIGN_IN, schema: claim }, async (request, reply) => {
      const { tokens } = await externalSignIn.claim(request.body, clientInfo(request));
      setSessionCookies(reply, tokens);
      return {
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token,
        expires_in: tokens.expires_in,
      };
    });

    app.post(
      '/api/auth/oidc/link',
      {
        config: AUTH,
        schema: { body: linkInput, response: { 200: identityLinked } },
        preValidation: requireSignedIn,
      },
      async (request) => externalSignIn.link(requireActor(request), request.body),
    );

    const identities = { response: { 200: linkedIdentityList } };
    app.get('/api/auth/identities', { config: AUTH, schema: identities }, async (request) =>
      externalSignIn.identities(requireActor(request)),
    );

    app.delete<{ Params: { id: string } }>(
      '/api/auth/identities/:id',
      { config: AUTH, schema: { response: { 204: noContent } } },
      async (request, reply) => {
        await externalSignIn.unlink(requireActor(request), request.params.id);
        return reply.code(204).send();
      },
    );
  });
}

/** Failed sign-ins go back to the sign-in page with a sentence to show, never a stack. */
function redirectWithError(reply: FastifyReply, message: string) {
  return reply.redirect(`/login?error=${encodeURIComponent(message)}`, 302);
}
