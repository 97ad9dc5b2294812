import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { requireScope } from '../../domain/policy.js';
import { AppError, conflict, invalid, unauthorized } from '../../errors.js';
import type { Store } from '../../store/database.js';
import { findHomeOrgId, listMembershipsOfUser } from '../../store/repositories/orgs.js';
import * as usersTable from '../../store/repositories/users.js';
import type { Database } from '../../store/schema.js';
import { createAccount, normalizeEmail } from './accounts.js';
import type { Clock } from '../../lib/clock.js';
import { ACCESS_TOKEN_SECONDS, type JwtSigner } from './jwt.js';
import { checkPasswordPolicy, type PasswordHasher } from './passwords.js';
import type { JoinStep } from '../collab/invitations.js';
import type { RegistrationPolicy, RegistrationTokens } from './registration.js';
import { clearFailedSignIns, countFailedSignIn, refuseWhileLocked } from './lockout.js';
import type { ClientInfo, Sessions } from './sessions.js';

const displayName = z.string().trim().min(1, 'Name is required').max(200);

export const registerInput = z.object({
  name: displayName,
  email: z.string().trim().max(320).pipe(z.email('Must be a valid email address')),
  password: z.string(),
  terms_accepted: z.literal(true, { error: 'You must accept the terms' }),
  /** An invitation to a workspace, for the same email; the new user joins it. */
  invitation_token: z.string().min(1).max(200).optional(),
  /** A share link's token; the new user joins its workspace. */
  share_token: z.string().min(1).max(200).optional(),
});

/** `POST /api/auth/change-password`: an account without a password yet sends none. */
export const changePasswordInput = z.object({
  current_password: z.string().max(4096).optional(),
  new_password: z.string(),
});

/** `PATCH /api/auth/me`: what a user may change of their own profile. */
export const updateProfileInput = z.strictObject({ name: displayName });

/**
 * Registration as the older layouts sent it: `terms_accepted` optional.
 * Without `true` the account records the terms as not accepted.
 */
export const olderRegisterInput = registerInput.extend({ terms_accepted: z.boolean().optional() });

export const loginInput = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(4096),
});

/**
 * `POST /api/auth/refresh`: the refresh token in the body, or none (any other body) to
 * use the refresh cookie instead. Never refused: a missing token is the service's 401.
 */
export const refreshInput = z.object({ refresh_token: z.string().optional().catch(undefined) }).catch({});

/** Creates the starter workspace of a new organization inside the registration transaction. */
export type StarterWorkspaceFactory = (
  trx: Kysely<Database>,
  owner: { userId: string; orgId: string; now: string },
) => Promise<void>;

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  expires_at: string;
}

export interface AuthDeps {
  store: Store;
  clock: Clock;
  passwords: PasswordHasher;
  jwt: JwtSigner;
  sessions: Sessions;
  createStarterWorkspace: StarterWorkspaceFactory;
  registration: RegistrationPolicy;
}

/** Registration, sign-in, token refresh, sign-out and the current user. */
export function createAuthService(deps: AuthDeps) {
  const { store, clock, passwords, jwt, sessions } = deps;
  const db = store.db;

  async function issue(
    userId: string,
    orgId: string,
    sessionId: string,
    refreshToken: string,
  ): Promise<TokenPair> {
    const user = await usersTable.findUserById(db, userId);
    if (!user) throw new Error(`No user ${userId} to issue tokens for`);
    const { token, expiresAt } = await jwt.sign({ userId, orgId, sessionId, epoch: user.session_epoch });
    return {
      access_token: token,
      refresh_token: refreshToken,
      expires_in: ACCESS_TOKEN_SECONDS,
      expires_at: expiresAt.toISOString(),
    };
  }

  /** The organization a user signs in to: the one they own, else the first they joined. */
  async function homeOrg(userId: string): Promise<string> {
    const orgId = await findHomeOrgId(db, userId);
    if (orgId === undefined) throw unauthorized('This account belongs to no organization');
    return orgId;
  }

  /** User, organization and starter workspace in one transaction, then a first session. */
  async function openAccount(
    input: {
      name: string;
      email: string;
      passwordHash: string | null;
      join: JoinStep | null;
      termsAccepted?: boolean;
    },
    client: ClientInfo,
  ) {
    const email = normalizeEmail(input.email);
    const now = clock.now().toISOString();
    if (await usersTable.isEmailTaken(db, email)) throw conflict('An account with this email already exists');
    let created: Awaited<ReturnType<typeof createAccount>>;
    try {
      created = await db.transaction().execute(async (trx) => {
        const account = await createAccount(trx, {
          name: input.name,
          email,
          passwordHash: input.passwordHash,
          now,
          ...(input.termsAccepted === false ? { termsAccepted: false } : {}),
        });
        await deps.createStarterWorkspace(trx, { userId: account.user.id, orgId: account.orgId, now });
        await input.join?.(trx, account.user.id);
        return account;
      });
    } catch (error) {
      // Two registrations racing for one email: the unique index decides.
      if (/unique|duplicate/i.test((error as Error).message)) {
        throw conflict('An account with this email already exists');
      }
      throw error;
    }
    const { sessionId, refreshToken } = await sessions.start(created.user.id, client);
    const tokens = await issue(created.user.id, created.orgId, sessionId, refreshToken);
    return {
      user: {
        id: created.user.id,
        name: created.user.name,
        email: created.user.email,
        handle: created.user.handle,
        role: 'superadmin',
      },
      tokens,
    };
  }

  const service = {
    /**
     * Creates user, organization and starter workspace in one transaction (with
     * the membership an invitation or share link grants), then signs in.
     * REGISTRATION decides who may (see registration.ts).
     */
    async register(input: z.infer<typeof registerInput>, client: ClientInfo) {
      checkPasswordPolicy(input.password);
      const join = await deps.registration.admit(normalizeEmail(input.email), input);
      const passwordHash = await passwords.hash(input.password);
      return openAccount({ name: input.name, email: input.email, passwordHash, join }, client);
    },

    /**
     * `register` for the older layouts' clients, whose form had no terms to accept: the
     * account records whether `terms_accepted: true` was sent.
     */
    async registerOlder(input: z.infer<typeof olderRegisterInput>, client: ClientInfo) {
      checkPasswordPolicy(input.password);
      const join = await deps.registration.admit(normalizeEmail(input.email), input);
      const passwordHash = await passwords.hash(input.password);
      const termsAccepted = input.terms_accepted === true;
      return openAccount({ name: input.name, email: input.email, passwordHash, join, termsAccepted }, client);
    },

    /**
     * An account for someone an identity provider vouched for: no password until they
     * set one. REGISTRATION applies as it does to registering with a password.
     */
    async registerExternal(input: { name: string; email: string } & RegistrationTokens, client: ClientInfo) {
      const join = await deps.registration.admit(normalizeEmail(input.email), input);
      return openAccount({ name: input.name, email: input.email, passwordHash: null, join }, client);
    },

    /**
     * Signs in a user whose identity was proven another way (an identity provider):
     * the account lockout applies as it does to passwords.
     */
    async signIn(userId: string, client: ClientInfo): Promise<TokenPair> {
      const user = await usersTable.findUserById(db, userId);
      if (!user) throw unauthorized('This account no longer exists');
      const now = clock.now();
      refuseWhileLocked(user, now);
      const { sessionId, refreshToken } = await sessions.start(user.id, client);
      return issue(user.id, await homeOrg(user.id), sessionId, refreshToken);
    },

    /**
     * Checks credentials. Unknown emails cost the same argon2 verification as
     * known ones. The fifth consecutive failure locks the account for 15
     * minutes; attempts while locked answer 429 with Retry-After.
     */
    async login(input: z.infer<typeof loginInput>, client: ClientInfo): Promise<TokenPair> {
      const now = clock.now();
      const user = await usersTable.findUserByEmail(db, normalizeEmail(input.email));
      if (user) refuseWhileLocked(user, now);
      const ok = await passwords.verify(user?.password_hash ?? null, input.password);
      if (!user || !ok) {
        if (user) await countFailedSignIn(db, user.id, now);
        throw unauthorized('Invalid email or password');
      }
      await clearFailedSignIns(db, user.id);
      const { sessionId, refreshToken } = await sessions.start(user.id, client);
      return issue(user.id, await homeOrg(user.id), sessionId, refreshToken);
    },

    /** Rotates a refresh token into a new pair. */
    async refresh(refreshToken: string | undefined, client: ClientInfo): Promise<TokenPair> {
      // A failed refresh is 401, a missing token included.
      if (!refreshToken) throw unauthorized('A refresh token is required');
      const rotated = await sessions.rotate(refreshToken, client);
      return issue(rotated.userId, await homeOrg(rotated.userId), rotated.sessionId, rotated.refreshToken);
    },

    /** Ends every session of the user on every device; their access tokens stop working. */
    async logout(actor: Actor): Promise<void> {
      // A POST: a read-only (or delete-only) API key must not sign its user out everywhere.
      requireScope(actor, 'write');
      await sessions.revokeAll(actor.userId);
    },

    async me(actor: Actor) {
      const user = await usersTable.findUserById(db, actor.userId);
      if (!user) throw unauthorized();
      const [org] = await listMembershipsOfUser(db, actor.userId, { orgId: actor.orgId });
      return {
        id: user.id,
        name: user.name,
        email: user.email,
        handle: user.handle,
        role: org?.role ?? 'viewer',
        platform_owner: user.is_platform_owner === 1,
        org: org ? { id: org.id, handle: org.handle, name: org.name } : null,
      };
    },

    /** Changes the caller's display name; answers the profile as `me` does. */
    async updateProfile(actor: Actor, input: z.infer<typeof updateProfileInput>) {
      requireScope(actor, 'write');
      await usersTable.updateUserName(db, actor.userId, input.name, clock.now().toISOString());
      return service.me(actor);
    },

    /**
     * Sets a new password after checking the current one (an account made through an
     * identity provider may set its first without one). Every other session ends, as after
     * a reset; the caller's continues as a fresh session, whose tokens are answered. API
     * keys stay: whoever knows the password is the owner, not an intruder taking it back.
     * A wrong current password counts towards the account lockout like a failed sign-in.
     */
    async changePassword(
      actor: Actor,
      input: z.infer<typeof changePasswordInput>,
      client: ClientInfo,
    ): Promise<TokenPair> {
      if (actor.via === 'api_key')
        throw new AppError('FORBIDDEN', 'Change the password from a signed-in session');
      const now = clock.now();
      const user = await usersTable.findUserById(db, actor.userId);
      if (!user) throw unauthorized();
      refuseWhileLocked(user, now);
      if (user.password_hash !== null) {
        const ok = await passwords.verify(user.password_hash, input.current_password ?? '');
        if (!ok) {
          await countFailedSignIn(db, user.id, now);
          throw invalid('current_password', 'The current password is not right');
        }
      }
      checkPasswordPolicy(input.new_password, 'new_password');
      const passwordHash = await passwords.hash(input.new_password);
      await usersTable.updateUserPassword(db, user.id, passwordHash, now.toISOString());
      await sessions.revokeAll(user.id);
      const { sessionId, refreshToken } = await sessions.start(user.id, client);
      return issue(user.id, actor.orgId, sessionId, refreshToken);
    },

    async listSessions(actor: Actor, currentSessionId?: string) {
      const rows = await sessions.list(actor.userId);
      return rows.map((s) => ({
        id: s.id,
        device: s.device,
        ip: s.ip,
        created_at: s.created_at,
        last_active_at: s.last_active_at,
        current: s.id === currentSessionId,
      }));
    },
  };
  return service;
}

export type AuthService = ReturnType<typeof createAuthService>;
