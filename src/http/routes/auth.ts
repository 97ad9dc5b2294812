import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  changePasswordInput,
  loginInput,
  refreshInput,
  registerInput,
  updateProfileInput,
} from '../../services/identity/index.js';
import type { Services } from '../../services/index.js';
import { forgotPasswordInput, resetPasswordInput } from '../../services/identity/index.js';
import { rateKey } from '../rate-limit-hook.js';
import { clientInfo, requireActor, requireSignedIn } from '../auth-context.js';
import { clearSessionCookies, COOKIES, setSessionCookies } from '../cookies.js';
import { me, registered, sessionList, tokenPair } from '../../contract/auth.js';
import { messageAnswer, noContent } from '../../contract/answers.js';
import { crossOriginRefused, fromOwnOrigin } from '../same-origin.js';

const AUTH = { rateLimit: 'auth' } as const;
/** Routes that sign a caller in (or help them back in): any credentials they are sent are stale at best. */
const SIGN_IN = { rateLimit: 'auth', auth: 'none' } as const;

/** The API's password, token and session routes. Every one counts against the auth bucket. */
export function authRoutes(services: Services, publicUrl: string) {
  const { auth, passwordReset } = services;
  const publicOrigin = new URL(publicUrl).origin;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/api/auth/register',
      {
        config: { rateLimit: ['auth', 'registration'], auth: 'none' },
        schema: { body: registerInput, response: { 201: registered } },
      },
      async (request, reply) => {
        const { user, tokens } = await auth.register(request.body, clientInfo(request));
        setSessionCookies(reply, tokens);
        return reply
          .code(201)
          .send({ user, access_token: tokens.access_token, expires_at: tokens.expires_at });
      },
    );

    const signIn = { body: loginInput, response: { 200: tokenPair } };
    app.post('/api/auth/login', { config: SIGN_IN, schema: signIn }, async (request, reply) => {
      const tokens = await auth.login(request.body, clientInfo(request));
      setSessionCookies(reply, tokens);
      return {
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token,
        expires_in: tokens.expires_in,
      };
    });

    const refresh = { body: refreshInput, response: { 200: tokenPair } };
    app.post('/api/auth/refresh', { config: SIGN_IN, schema: refresh }, async (request, reply) => {
      let token = request.body.refresh_token;
      if (token === undefined) {
        // The cookie is sent by the browser on its own; only Folio's pages may spend it.
        if (!fromOwnOrigin(request, publicOrigin)) throw crossOriginRefused();
        token = request.cookies[COOKIES.refresh];
      }
      const tokens = await auth.refresh(token, clientInfo(request));
      setSessionCookies(reply, tokens);
      return {
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token,
        expires_in: tokens.expires_in,
      };
    });

    app.post(
      '/api/auth/logout',
      { config: AUTH, schema: { response: { 204: noContent } } },
      async (request, reply) => {
        await auth.logout(requireActor(request));
        clearSessionCookies(reply);
        return reply.code(204).send();
      },
    );

    app.get('/api/auth/me', { config: AUTH, schema: { response: { 200: me } } }, async (request) =>
      auth.me(requireActor(request)),
    );

    app.patch(
      '/api/auth/me',
      {
        config: AUTH,
        schema: { body: updateProfileInput, response: { 200: me } },
        preValidation: requireSignedIn,
      },
      async (request) => auth.updateProfile(requireActor(request), request.body),
    );

    const changePassword = {
      config: AUTH,
      schema: { body: changePasswordInput, response: { 200: tokenPair } },
      preValidation: requireSignedIn,
    };
    app.post('/api/auth/change-password', changePassword, async (request, reply) => {
      const tokens = await auth.changePassword(requireActor(request), request.body, clientInfo(request));
      setSessionCookies(reply, tokens);
      return {
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token,
        expires_in: tokens.expires_in,
      };
    });

    app.get(
      '/api/auth/sessions',
      { config: AUTH, schema: { response: { 200: sessionList } } },
      async (request) => {
        const actor = requireActor(request);
        return { data: await auth.listSessions(actor, actor.sessionId), next_cursor: null };
      },
    );

    // Always 200, whether or not the address is known or the limit is spent.
    const forgot = {
      config: { auth: 'none' },
      schema: { body: forgotPasswordInput, response: { 200: messageAnswer } },
    } as const;
    app.post('/api/auth/forgot-password', forgot, async (request) => {
      await passwordReset.forgot(request.body.email, (bucket) => rateKey(request, bucket));
      return { message: 'If an account exists for that address, a reset link is on its way.' };
    });

    app.post(
      '/api/auth/reset-password',
      {
        config: { rateLimit: ['auth', 'passwordReset'], auth: 'none' },
        schema: { body: resetPasswordInput, response: { 200: messageAnswer } },
      },
      async (request) => {
        await passwordReset.reset(request.body);
        return { message: 'Password changed. Every session was signed out and every API key revoked.' };
      },
    );
  };
}
