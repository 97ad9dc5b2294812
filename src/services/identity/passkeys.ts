import type * as WebAuthn from '@simplewebauthn/server';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { ulid } from 'ulid';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { requireScope } from '../../domain/policy.js';
import { conflict, forbidden, notFound, unauthorized } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/database.js';
import * as passkeysTable from '../../store/repositories/passkeys.js';
import { findUserByEmail, findUserById } from '../../store/repositories/users.js';
import { normalizeEmail } from './accounts.js';
import type { AuthService, TokenPair } from './auth.js';
import { clearFailedSignIns, countFailedSignIn, refuseWhileLocked } from './lockout.js';
import type { ClientInfo } from './sessions.js';
import { keepOneWayIn } from './sign-in-methods.js';
import { importPackage } from '../../lib/import-package.js';

/**
 * The WebAuthn library and its ASN.1 and X.509 dependencies load on first use, so an
 * instance without passkeys (and every start-up) does not pay for them.
 */
const webauthn = () => importPackage<typeof WebAuthn>('@simplewebauthn/server');

/** A begun ceremony must finish within this time; its challenge works once. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** Marks a sign-in challenge begun for an email no account has. */
const NO_ACCOUNT = 'no-account:';

const passkeyName = z.string().trim().min(1, 'Name is required').max(100);

/** The browser's answer (`@simplewebauthn/browser`'s JSON), checked in depth by the library. */
const credentialJson = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().min(1).max(16_384) }),
});

export const passkeyRegisterFinishInput = z.object({
  response: credentialJson,
  name: passkeyName.optional(),
});
export const passkeyLoginBeginInput = z.object({ email: z.string().trim().max(320).optional() });
export const passkeyLoginFinishInput = z.object({ response: credentialJson });
export const passkeyRenameInput = z.object({ name: passkeyName });

export interface PasskeysConfig {
  rpId?: string;
  rpName: string;
  origins: string[];
}

export interface PasskeyDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  auth: AuthService;
  config: PasskeysConfig;
}

/** What the API shows of a passkey (never its key). */
export interface PasskeyView {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  device_type: string;
  backed_up: boolean;
}

const refused = () => unauthorized('This passkey could not be verified. Please try again.');

/** The challenge a response answers, read from its client data (the library checks the rest). */
function challengeOf(response: { response: { clientDataJSON: string } }): string {
  try {
    const data = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof data.challenge === 'string' ? data.challenge : '';
  } catch {
    return '';
  }
}

/**
 * Passkeys: registration by a signed-in user, sign-in with discoverable
 * credentials or an email hint, and managing the stored credentials. Every begun
 * ceremony's challenge is stored, used once, and expires after five minutes; the
 * origin must be one of WEBAUTHN_RP_ORIGINS; a signature counter that does not grow
 * is refused as a sign of a cloned authenticator. A passkey sign-in answers what a
 * password sign-in answers, with the same lockout.
 */
export function createPasskeys(deps: PasskeyDeps) {
  const { store, clock, auth, config } = deps;
  const db = store.db;
  const rpID = config.rpId ?? '';
  const enabled = Boolean(config.rpId && config.origins.length);

  function requireEnabled(): void {
    if (!enabled) throw notFound('Route');
  }

  async function saveChallenge(challenge: string, purpose: 'register' | 'login', userId: string | null) {
    const now = clock.now();
    await passkeysTable.deleteExpiredPasskeyChallenges(db, now.toISOString());
    await passkeysTable.insertPasskeyChallenge(db, {
      challenge,
      purpose,
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(),
    });
  }

  /** Takes the unexpired challenge a response answers, once; null when there is none. */
  async function takeChallenge(challenge: string, purpose: 'register' | 'login') {
    if (!challenge) return null;
    // Undefined too when a concurrent finish with the same challenge took it first.
    const row = await passkeysTable.takePasskeyChallenge(db, challenge, purpose);
    if (!row) return null;
    return row.expires_at > clock.now().toISOString() ? row : null;
  }

  async function ownCredential(actor: Actor, id: string) {
    const row = await passkeysTable.findPasskeyOfUser(db, id, actor.userId);
    if (!row) throw notFound('Passkey');
    return row;
  }

  function view(row: {
    id: string;
    name: string;
    created_at: string;
    last_used_at: string | null;
    device_type: string;
    backed_up: number;
  }): PasskeyView {
    return {
      id: row.id,
      name: row.name,
      created_at: row.created_at,
      last_used_at: row.last_used_at,
      device_type: row.device_type,
      backed_up: Boolean(row.backed_up),
    };
  }

  return {
    enabled,

    /** Options for `navigator.credentials.create()`, for the signed-in user. */
    async registerBegin(actor: Actor) {
      requireEnabled();
      requireSession(actor);
      const user = await findUserById(db, actor.userId);
      if (!user) throw new Error(`No user ${actor.userId} to register a passkey for`);
      const existing = await passkeysTable.listPasskeysOfUser(db, user.id);
      const { generateRegistrationOptions } = await webauthn();
      const options = await generateRegistrationOptions({
        rpName: config.rpName,
        rpID,
        userName: user.email,
        userDisplayName: user.name,
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        // The same authenticator twice would only be a confusing duplicate.
        excludeCredentials: existing.map((c) => ({
          id: c.credential_id,
          transports: JSON.parse(c.transports) as AuthenticatorTransport[],
        })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
      });
      await saveChallenge(options.challenge, 'register', user.id);
      return options;
    },

    /** Verifies the new credential and stores it; answers its view. */
    async registerFinish(actor: Actor, input: z.infer<typeof passkeyRegisterFinishInput>) {
      requireEnabled();
      requireSession(actor);
      const challenge = await takeChallenge(challengeOf(input.response), 'register');
      if (!challenge || challenge.user_id !== actor.userId) throw refused();
      let verified;
      try {
        const { verifyRegistrationResponse } = await webauthn();
        verified = await verifyRegistrationResponse({
          response: input.response as unknown as RegistrationResponseJSON,
          expectedChallenge: challenge.challenge,
          expectedOrigin: config.origins,
          expectedRPID: rpID,
          requireUserVerification: true,
        });
      } catch (error) {
        deps.logger.info({ reason: (error as Error).message }, 'a passkey registration was refused');
        throw refused();
      }
      if (!verified.verified) throw refused();
      const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
      const taken = await passkeysTable.findPasskeyByCredentialId(db, credential.id);
      if (taken) throw conflict('This passkey is already registered.');
      const count = await passkeysTable.countPasskeysOfUser(db, actor.userId);
      const row = {
        id: ulid(),
        user_id: actor.userId,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? []),
        device_type: credentialDeviceType,
        backed_up: credentialBackedUp ? (1 as const) : (0 as const),
        name: input.name ?? `Passkey ${count + 1}`,
        created_at: clock.now().toISOString(),
        last_used_at: null,
      };
      await passkeysTable.insertPasskeyCredential(db, row);
      return view(row);
    },

    /**
     * Options for `navigator.credentials.get()`: always a discoverable challenge with no
     * `allowCredentials`, so the answer is the same whether or not an email hint names an
     * account (listing its passkeys would tell accounts apart). A hint still narrows the
     * sign-in: the challenge then accepts only that account's passkeys, and one for an
     * unknown email accepts none, so finishing tells nothing either.
     */
    async loginBegin(input: z.infer<typeof passkeyLoginBeginInput>) {
      requireEnabled();
      let userId: string | null = null;
      if (input.email) {
        const user = await findUserByEmail(db, normalizeEmail(input.email));
        // No user id has this form, so no stored passkey matches it.
        userId = user?.id ?? `${NO_ACCOUNT}${ulid()}`;
      }
      const { generateAuthenticationOptions } = await webauthn();
      const options = await generateAuthenticationOptions({ rpID, userVerification: 'required' });
      await saveChallenge(options.challenge, 'login', userId);
      return options;
    },

    /** Verifies an assertion and signs its user in: the same tokens as a password sign-in. */
    async loginFinish(
      input: z.infer<typeof passkeyLoginFinishInput>,
      client: ClientInfo,
    ): Promise<TokenPair> {
      requireEnabled();
      const challenge = await takeChallenge(challengeOf(input.response), 'login');
      if (!challenge) throw refused();
      const stored = await passkeysTable.findPasskeyByCredentialId(db, input.response.id);
      if (!stored || (challenge.user_id && challenge.user_id !== stored.user_id)) throw refused();
      const user = await findUserById(db, stored.user_id);
      if (!user) throw new Error(`No user ${stored.user_id} for passkey ${stored.id}`);
      const now = clock.now();
      refuseWhileLocked(user, now);
      let verified;
      try {
        const { verifyAuthenticationResponse } = await webauthn();
        verified = await verifyAuthenticationResponse({
          response: input.response as unknown as AuthenticationResponseJSON,
          expectedChallenge: challenge.challenge,
          expectedOrigin: config.origins,
          expectedRPID: rpID,
          credential: {
            id: stored.credential_id,
            publicKey: Buffer.from(stored.public_key, 'base64url'),
            counter: Number(stored.counter),
            transports: JSON.parse(stored.transports) as AuthenticatorTransport[],
          },
          requireUserVerification: true,
        });
      } catch (error) {
        deps.logger.info({ reason: (error as Error).message }, 'a passkey sign-in was refused');
        verified = null;
      }
      if (!verified?.verified) {
        await countFailedSignIn(db, stored.user_id, clock.now());
        throw refused();
      }
      await passkeysTable.recordPasskeyUse(
        db,
        stored.id,
        verified.authenticationInfo.newCounter,
        now.toISOString(),
      );
      await clearFailedSignIns(db, stored.user_id);
      return auth.signIn(stored.user_id, client);
    },

    /** The caller's passkeys, oldest first. */
    async list(actor: Actor) {
      requireEnabled();
      requireScope(actor, 'read');
      const rows = await passkeysTable.listPasskeysOfUser(db, actor.userId);
      return { data: rows.map(view), next_cursor: null };
    },

    async rename(actor: Actor, id: string, input: z.infer<typeof passkeyRenameInput>) {
      requireEnabled();
      requireScope(actor, 'write');
      const row = await ownCredential(actor, id);
      await passkeysTable.renamePasskey(db, id, input.name);
      return view({ ...row, name: input.name });
    },

    /** Deletes a passkey, unless it is the account's last way to sign in. */
    async remove(actor: Actor, id: string) {
      requireEnabled();
      requireScope(actor, 'delete');
      await ownCredential(actor, id);
      await keepOneWayIn(db, actor.userId, { passkey: id }, 'delete');
      await passkeysTable.deletePasskey(db, id);
    },
  };
}

export type Passkeys = ReturnType<typeof createPasskeys>;

/** Registration is a browser ceremony: an API key has no authenticator to register. */
function requireSession(actor: Actor): void {
  if (actor.via !== 'jwt' && actor.via !== 'cookie') {
    throw forbidden('Passkeys are registered from a signed-in browser, not with an API key');
  }
}
