import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../domain/validate.js';
import { notFound } from '../../errors.js';
import {
  passkeyLoginBeginInput,
  passkeyLoginFinishInput,
  passkeyRegisterFinishInput,
  passkeyRenameInput,
} from '../../services/identity/index.js';
import type { Services } from '../../services/index.js';
import { clientInfo, requireActor } from '../auth-context.js';
import { setSessionCookies } from '../cookies.js';

const AUTH = { rateLimit: 'auth' } as const;
/** Sign-in steps: stale credentials a browser still sends must not get in their way. */
const SIGN_IN = { rateLimit: 'auth', auth: 'none' } as const;

/**
 * Passkeys (SPEC.md 4.1, 5.5): registration and sign-in ceremonies, and the caller's
 * stored passkeys. Without WEBAUTHN_RP_ID and WEBAUTHN_RP_ORIGINS every route is 404.
 */
export function passkeyRoutes(services: Services) {
  const { passkeys } = services;
  return (app: FastifyInstance) => {
    // Scoped to these routes: with passkeys off they do not exist.
    app.addHook('onRequest', async () => {
      if (!passkeys.enabled) throw notFound('Route');
    });

    app.post('/api/auth/webauthn/register/begin', { config: AUTH }, async (request) =>
      passkeys.registerBegin(requireActor(request)),
    );

    app.post('/api/auth/webauthn/register/finish', { config: AUTH }, async (request, reply) => {
      const actor = requireActor(request);
      const created = await passkeys.registerFinish(
        actor,
        parseInput(passkeyRegisterFinishInput, request.body),
      );
      return reply.code(201).send(created);
    });

    app.post('/api/auth/webauthn/login/begin', { config: SIGN_IN }, async (request) =>
      passkeys.loginBegin(parseInput(passkeyLoginBeginInput, request.body ?? {})),
    );

    app.post('/api/auth/webauthn/login/finish', { config: SIGN_IN }, async (request, reply) => {
      const tokens = await passkeys.loginFinish(
        parseInput(passkeyLoginFinishInput, request.body),
        clientInfo(request),
      );
      setSessionCookies(reply, tokens);
      return {
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token,
        expires_in: tokens.expires_in,
      };
    });

    app.get('/api/auth/webauthn/credentials', { config: AUTH }, async (request) =>
      passkeys.list(requireActor(request)),
    );

    app.patch<{ Params: { id: string } }>(
      '/api/auth/webauthn/credentials/:id',
      { config: AUTH },
      async (request) => {
        return passkeys.rename(
          requireActor(request),
          request.params.id,
          parseInput(passkeyRenameInput, request.body),
        );
      },
    );

    app.delete<{ Params: { id: string } }>(
      '/api/auth/webauthn/credentials/:id',
      { config: AUTH },
      async (request, reply) => {
        await passkeys.remove(requireActor(request), request.params.id);
        return reply.code(204).send();
      },
    );
  };
}
