import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  forgotPasswordInput,
  loginInput,
  olderRegisterInput,
  resetPasswordInput,
  type TokenPair,
  WS_TICKET_SECONDS,
} from '../../services/identity/index.js';
import type { Services } from '../../services/index.js';
import { clientInfo, requireActor } from '../auth-context.js';
import { COOKIES, setCookie, setSessionCookies } from '../cookies.js';
import { rateKey } from '../rate-limit-hook.js';
import { deprecatedRoute, paramsOf } from './layout.js';

const SIGN_IN = { rateLimit: 'auth', auth: 'none' } as const;
const REGISTER = { rateLimit: ['auth', 'registration'], auth: 'none' } as const;
/** Layout C's refresh: the token in the body (no cookie fallback, so no cross-site spending). */
const olderRefreshInput = z.object({
  refresh_token: z.string({ error: 'refresh_token is required' }).min(1),
});

/** Sets the session cookies and answers the token pair the older layouts returned. */
function tokens(reply: FastifyReply, pair: TokenPair) {
  setSessionCookies(reply, pair);
  return { access_token: pair.access_token, refresh_token: pair.refresh_token, expires_in: pair.expires_in };
}

/**
 * Layout C's `/api/v1/auth/…` routes, Layout B's registration and WebSocket cookie
 * (`Folio-Layout: B` on `/api/auth/register` and `/api/auth/ws-token`), C's WebSocket ticket
 * and its identity-provider callback. Token lifetimes are the current ones (refresh 7 days,
 * not C's 30).
 */
export function authCompatRoutes(services: Services) {
  const { auth, passwordReset, wsTickets } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    // Layout B's 201: user and a token pair; terms are recorded as accepted only when sent.
    const register = (successor: string, summary: string, headerVariant = false) => {
      const d = deprecatedRoute(successor, summary, { headerVariant });
      return { onSend: d.onSend, config: REGISTER, schema: { ...d.schema, body: olderRegisterInput } };
    };
    const registerHandler = async (
      request: { body: z.infer<typeof olderRegisterInput> } & Parameters<typeof clientInfo>[0],
      reply: FastifyReply,
    ) => {
      const { user, tokens: pair } = await auth.registerOlder(request.body, clientInfo(request));
      return reply.code(201).send({ user, ...tokens(reply, pair) });
    };
    app.post('/api/v1/auth/register', register('/api/auth/register', 'Layout C: register'), registerHandler);
    app.post(
      '/api/auth/register',
      {
        ...register('/api/auth/register', 'Layout B: register without terms_accepted', true),
        constraints: { layout: 'B' },
      },
      registerHandler,
    );

    const login = deprecatedRoute('/api/auth/login', 'Layout C: sign in');
    app.post(
      '/api/v1/auth/login',
      { onSend: login.onSend, config: SIGN_IN, schema: { ...login.schema, body: loginInput } },
      async (request, reply) => tokens(reply, await auth.login(request.body, clientInfo(request))),
    );

    const refresh = deprecatedRoute('/api/auth/refresh', 'Layout C: new token pair (refresh token rotated)');
    app.post(
      '/api/v1/auth/refresh',
      { onSend: refresh.onSend, config: SIGN_IN, schema: { ...refresh.schema, body: olderRefreshInput } },
      async (request, reply) =>
        tokens(reply, await auth.refresh(request.body.refresh_token, clientInfo(request))),
    );

    // Always 200, as forgot-password.
    const forgot = deprecatedRoute('/api/auth/forgot-password', 'Layout C: ask for a password reset link');
    app.post(
      '/api/v1/auth/password-reset',
      {
        onSend: forgot.onSend,
        config: { auth: 'none' },
        schema: { ...forgot.schema, body: forgotPasswordInput },
      },
      async (request) => {
        await passwordReset.forgot(request.body.email, (bucket) => rateKey(request, bucket));
        return { message: 'If an account exists for that address, a reset link is on its way.' };
      },
    );

    const confirm = deprecatedRoute(
      '/api/auth/reset-password',
      'Layout C: set a new password with a reset token',
    );
    app.post(
      '/api/v1/auth/password-reset/confirm',
      {
        onSend: confirm.onSend,
        config: { rateLimit: ['auth', 'passwordReset'], auth: 'none' },
        schema: { ...confirm.schema, body: resetPasswordInput },
      },
      async (request) => {
        await passwordReset.reset(request.body);
        return { message: 'Password changed. Every session was signed out and every API key revoked.' };
      },
    );

    const ticket = deprecatedRoute(
      '/api/auth/ws-token',
      'Layout C: a 30-second, single-use WebSocket ticket',
    );
    app.post(
      '/api/v1/auth/ws-ticket',
      { onSend: ticket.onSend, config: { rateLimit: 'auth' }, schema: ticket.schema },
      async (request) => wsTickets.issue(requireActor(request)),
    );

    // Layout B's cookie is a ticket of the same store: 30 seconds, spent by the first upgrade.
    const wsCookie = deprecatedRoute(
      '/api/auth/ws-token',
      'Layout B: a 30-second, single-use WebSocket cookie',
      { headerVariant: true },
    );
    app.post(
      '/api/auth/ws-token',
      { ...wsCookie, constraints: { layout: 'B' }, config: { rateLimit: 'auth' } },
      async (request, reply) => {
        const { ticket } = await wsTickets.issue(requireActor(request));
        setCookie(reply, COOKIES.ws, ticket, WS_TICKET_SECONDS);
        return reply.code(200).send();
      },
    );

    // The provider's redirect lands on the current callback, query and all (docs/compatibility.md).
    const callbackOf = (provider: string) => `/api/auth/oidc/${encodeURIComponent(provider)}/callback`;
    const callback = deprecatedRoute(
      (request) => callbackOf(paramsOf(request).provider ?? ''),
      'Layout C: identity-provider callback (redirects to the current one)',
    );
    app.get(
      '/api/v1/auth/callback/:provider',
      {
        onSend: callback.onSend,
        config: SIGN_IN,
        schema: { ...callback.schema, params: z.object({ provider: z.string() }) },
      },
      async (request, reply) => {
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        return reply.redirect(callbackOf(request.params.provider) + query, 307);
      },
    );
  };
}
