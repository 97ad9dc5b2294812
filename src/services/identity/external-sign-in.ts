import { ulid } from 'ulid';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { requireScope } from '../../domain/policy.js';
import { AppError, conflict, invalid, notFound } from '../../errors.js';
import type { Store } from '../../store/database.js';
import * as identitiesTable from '../../store/repositories/identities.js';
import { findUserByEmail } from '../../store/repositories/users.js';
import { normalizeEmail } from './accounts.js';
import type { AuthService } from './auth.js';
import type { Logger } from '../../logger.js';
import type { Clock } from '../../lib/clock.js';
import { type IdentityProvider, providerFailure } from './providers.js';
import { randomToken, safeEqual, sha256Hex } from '../../lib/secrets.js';
import type { ClientInfo } from './sessions.js';
import { keepOneWayIn } from './sign-in-methods.js';

/** A started sign-in must come back within this time. */
export const FLOW_TTL_MS = 10 * 60 * 1000;
/** A claim code is exchanged by the web app at once: one minute, one use. */
export const CLAIM_TTL_MS = 60 * 1000;
/** A link waits for its account's owner to sign in with their password and confirm. */
export const LINK_TTL_MS = 10 * 60 * 1000;

export const claimInput = z.object({
  code: z.string().min(1).max(200),
  terms_accepted: z.boolean().optional(),
  /** As at registration: REGISTRATION=invite-only admits a new account only with one of these. */
  invitation_token: z.string().min(1).max(200).optional(),
  share_token: z.string().min(1).max(200).optional(),
});

export const linkInput = z.object({ code: z.string().min(1).max(200) });

export interface ExternalSignInDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  auth: AuthService;
  providers: Map<string, IdentityProvider>;
  publicUrl: string;
  passkeysEnabled: boolean;
}

/**
 * Sign-in with identity providers. A flow is started with state,
 * nonce and PKCE kept server-side and bound to the browser; its callback settles who
 * signed in and leaves a claim that the web app exchanges for a session with a one-time
 * code. An identity is linked to an account by provider and subject. A verified email
 * that no account has opens a new account; one that an account has is linked only after
 * that account's owner signs in and confirms, so nobody takes an account over by
 * controlling an address at a provider.
 */
export function createExternalSignIn(deps: ExternalSignInDeps) {
  const { store, clock, auth, providers } = deps;
  const db = store.db;

  function provider(id: string): IdentityProvider {
    const found = providers.get(id);
    if (!found) throw notFound('Identity provider');
    return found;
  }

  const callbackUrl = (id: string) => `${deps.publicUrl}/api/auth/oidc/${id}/callback`;

  /** Records what a callback established and answers the code that claims it. */
  async function leaveClaim(
    kind: 'signin' | 'signup' | 'link',
    providerId: string,
    identity: { subject: string; email: string; name: string },
    userId: string | null,
  ): Promise<string> {
    const code = randomToken(32);
    const now = clock.now();
    await identitiesTable.insertAuthClaim(db, {
      code_hash: sha256Hex(code),
      kind,
      provider: providerId,
      subject: identity.subject,
      email: identity.email,
      name: identity.name,
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + (kind === 'link' ? LINK_TTL_MS : CLAIM_TTL_MS)).toISOString(),
      used_at: null,
    });
    return code;
  }

  /** The unused, unexpired claim of `code`, or a 401. */
  async function findClaim(code: string) {
    const claim = await identitiesTable.findAuthClaim(db, sha256Hex(code));
    if (!claim || claim.used_at || claim.expires_at <= clock.now().toISOString()) {
      throw new AppError(
        'UNAUTHORIZED',
        'This sign-in code is invalid, used or expired. Please sign in again.',
      );
    }
    return claim;
  }

  /** Marks a claim used; false when a concurrent request used it first. */
  async function consume(codeHash: string): Promise<boolean> {
    return identitiesTable.consumeAuthClaim(db, codeHash, clock.now().toISOString());
  }

  async function linkIdentity(userId: string, claim: { provider: string; subject: string; email: string }) {
    const now = clock.now().toISOString();
    await identitiesTable.insertUserIdentity(db, {
      id: ulid(),
      user_id: userId,
      provider: claim.provider,
      subject: claim.subject,
      email: claim.email,
      created_at: now,
      last_used_at: now,
    });
  }

  return {
    /** The configured providers, and whether passkeys are on. */
    list() {
      return {
        providers: [...providers.values()].map((p) => ({ id: p.id, name: p.name })),
        passkeys: deps.passkeysEnabled,
      };
    },

    /**
     * Starts a sign-in: answers the provider's authorisation URL and the browser
     * binding to set as a cookie (the flow is found again by state, and only
     * completes in the browser that holds the binding).
     */
    async start(providerId: string): Promise<{ url: string; binding: string }> {
      const chosen = provider(providerId);
      const secrets = { state: randomToken(32), nonce: randomToken(32), codeVerifier: randomToken(48) };
      const binding = randomToken(32);
      const now = clock.now();
      const url = await chosen.authorizationUrl(callbackUrl(chosen.id), secrets).catch((error: unknown) => {
        throw new AppError('SERVICE_UNAVAILABLE', `${chosen.name} cannot be reached right now`, {
          cause: error,
        });
      });
      await identitiesTable.deleteExpiredAuthFlows(db, now.toISOString());
      await identitiesTable.insertAuthFlow(db, {
        state_hash: sha256Hex(secrets.state),
        provider: chosen.id,
        binding_hash: sha256Hex(binding),
        nonce: secrets.nonce,
        code_verifier: secrets.codeVerifier,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + FLOW_TTL_MS).toISOString(),
      });
      return { url: url.href, binding };
    },

    /**
     * Completes a flow from the provider's redirect and answers the one-time claim code.
     * The flow is used once, whatever the outcome.
     */
    async callback(providerId: string, query: URLSearchParams, binding: string | undefined): Promise<string> {
      const chosen = provider(providerId);
      // The URL the provider redirected to, as registered with it (the token request repeats it).
      const callback = new URL(callbackUrl(chosen.id));
      callback.search = query.toString();
      const state = callback.searchParams.get('state') ?? '';
      const flow = await identitiesTable.takeAuthFlow(db, sha256Hex(state));
      if (
        !flow ||
        flow.provider !== chosen.id ||
        !binding ||
        !safeEqual(sha256Hex(binding), flow.binding_hash) ||
        flow.expires_at <= clock.now().toISOString()
      ) {
        throw new AppError(
          'UNAUTHORIZED',
          'This sign-in expired or was started elsewhere. Please try again.',
        );
      }
      const identity = await chosen
        .identify(callback, { state, nonce: flow.nonce, codeVerifier: flow.code_verifier })
        .catch((error: unknown) => {
          // The person sees a sentence; the operator sees why (never a token: the library's messages carry none).
          const {
            message,
            error: code,
            error_description: description,
          } = error as Error & {
            error?: string;
            error_description?: string;
          };
          deps.logger.warn(
            { provider: chosen.id, reason: message, code, description },
            'a provider sign-in failed',
          );
          throw providerFailure(error);
        });

      const linked = await identitiesTable.findIdentityBySubject(db, chosen.id, identity.subject);
      if (linked) {
        await identitiesTable.touchIdentity(db, linked.id, clock.now().toISOString());
        return leaveClaim('signin', chosen.id, { ...identity, email: linked.email }, linked.user_id);
      }
      if (!identity.email) {
        throw new AppError(
          'UNAUTHORIZED',
          `${chosen.name} did not share a verified email address, so Folio cannot sign you in with it.`,
        );
      }
      const email = normalizeEmail(identity.email);
      const owner = await findUserByEmail(db, email);
      return owner
        ? leaveClaim('link', chosen.id, { ...identity, email }, owner.id)
        : leaveClaim('signup', chosen.id, { ...identity, email }, null);
    },

    /**
     * Exchanges a claim code for a session, as a password sign-in would answer. A new
     * account needs `terms_accepted: true` (the code stays usable until then); an account
     * that exists but is not linked answers 409 until its owner confirms the link.
     */
    async claim(input: z.infer<typeof claimInput>, client: ClientInfo) {
      const claim = await findClaim(input.code);
      if (claim.kind === 'link') {
        throw conflict(
          'An account with this email already exists. Sign in with its password, then confirm the link.',
          { reason: 'link_required', email: claim.email, provider: claim.provider },
        );
      }
      if (claim.kind === 'signup' && input.terms_accepted !== true) {
        throw invalid('terms_accepted', 'You must accept the terms to create an account');
      }
      if (!(await consume(claim.code_hash)))
        throw new AppError('UNAUTHORIZED', 'This sign-in code was already used.');
      if (claim.kind === 'signin')
        return { tokens: await auth.signIn(claim.user_id!, client), created: false };
      const account = await auth.registerExternal(
        {
          name: claim.name,
          email: claim.email,
          invitation_token: input.invitation_token,
          share_token: input.share_token,
        },
        client,
      );
      await linkIdentity(account.user.id, claim);
      return { tokens: account.tokens, created: true };
    },

    /** The signed-in owner of the claim's email confirms linking the provider's identity. */
    async link(actor: Actor, input: z.infer<typeof linkInput>) {
      requireScope(actor, 'write');
      const claim = await findClaim(input.code);
      if (claim.kind !== 'link' || claim.user_id !== actor.userId) {
        throw new AppError('FORBIDDEN', 'This sign-in belongs to another account.');
      }
      if (!(await consume(claim.code_hash)))
        throw new AppError('UNAUTHORIZED', 'This sign-in code was already used.');
      await linkIdentity(actor.userId, claim);
      return { provider: claim.provider, email: claim.email };
    },

    /** The identities linked to the caller's account. */
    async identities(actor: Actor) {
      const rows = await identitiesTable.listIdentitiesOfUser(db, actor.userId);
      const data = rows.map(({ id, provider, email, created_at, last_used_at }) => ({
        id,
        provider,
        email,
        created_at,
        last_used_at,
      }));
      return { data, next_cursor: null };
    },

    /** Unlinks an identity, unless it is the account's last way to sign in. */
    async unlink(actor: Actor, identityId: string) {
      requireScope(actor, 'delete');
      const identity = await identitiesTable.findIdentityOfUser(db, identityId, actor.userId);
      if (!identity) throw notFound('Identity');
      await keepOneWayIn(db, actor.userId, { identity: identityId }, 'unlink');
      await identitiesTable.deleteIdentity(db, identityId);
    },
  };
}
