import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../errors.js';
import {
  passkeyLoginBeginInput,
  passkeyLoginFinishInput,
  passkeyRegisterFinishInput,
  passkeyRenameInput,
} from '../../services/identity/index.js';
import type { Services } from '../../services/index.js';
import { clientInfo, requireActor, requireSignedIn } from '../auth-context.js';
import { setSessionCookies } from '../cookies.js';
import { noContent } from '../../contract/answers.js';
import {
  passkeyCreationOptions,
  passkeyList,
  passkeyRecord,
  passkeyRequestOptions,
  tokenPair,
} from '../../contract/auth.js';
import { idParams } from '../route-params.js';
import { ownScope } from '../route-scopes.js';

const AUTH = { rateLimit: 'auth' } as const;
/** Sign-in steps: stale credentials a browser still sends must not get in their way. */
const SIGN_IN = { rateLimit: 'auth', auth: 'none' } as const;

/**
 * Passkeys: registration and sign-in ceremonies, and the caller's
 * stored passkeys. Without WEBAUTHN_RP_ID and WEBAUTHN_RP_ORIGINS every route is 404.
 */
export function passkeyRoutes(services: Services) {
  const { passkeys } = services;
  return ownScope((scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    // Scoped to these routes: with passkeys off they do not exist.
    app.addHook('onRequest', async () => {
      if (!passkeys.enabled) throw notFound('Route');
    });

    const registerBegin = { response: { 200: passkeyCreationOptions } };
    app.post('/api/auth/webauthn/register/begin', { config: AUTH, schema: registerBegin }, async (request) =>
      passkeys.registerBegin(requireActor(request)),
    );

    const registerFinish = { body: passkeyRegisterFinishInput, response: { 201: passkeyRecord } };
    app.post(
      '/api/auth/webauthn/register/finish',
      { config: AUTH, schema: registerFinish, preValidation: requireSignedIn },
      async (request, reply) => {
        const created = await passkeys.registerFinish(requireActor(request), request.body);
        return reply.code(201).send(created);
      },
    );

    const loginBegin = { body: passkeyLoginBeginInput, response: { 200: passkeyRequestOptions } };
    app.post('/api/auth/webauthn/login/begin', { config: SIGN_IN, schema: loginBegin }, async (request) =>
      passkeys.loginBegin(request.body),
    );

    const loginFinish = { body: passkeyLoginFinishInput, response: { 200: tokenPair } };
    app.post(
      '/api/auth/webauthn/login/finish',
      { config: SIGN_IN, schema: loginFinish },
      async (request, reply) => {
        const tokens = await passkeys.loginFinish(request.body, clientInfo(request));
        setSessionCookies(reply, tokens);
        return {
          access_token: tokens.access_token,
          refresh_token: tokens.refresh_token,
          expires_in: tokens.expires_in,
        };
      },
    );

    const list = { response: { 200: passkeyList } };
    app.get('/api/auth/webauthn/credentials', { config: AUTH, schema: list }, async (request) =>
      passkeys.list(requireActor(request)),
    );

    const rename = { params: idParams, body: passkeyRenameInput, response: { 200: passkeyRecord } };
    app.patch(
      '/api/auth/webauthn/credentials/:id',
      { config: AUTH, schema: rename, preValidation: requireSignedIn },
      async (request) => passkeys.rename(requireActor(request), request.params.id, request.body),
    );

    app.delete(
      '/api/auth/webauthn/credentials/:id',
      { config: AUTH, schema: { params: idParams, response: { 204: noContent } } },
      async (request, reply) => {
        await passkeys.remove(requireActor(request), request.params.id);
        return reply.code(204).send();
      },
    );
  });
}
