import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { requirePlatformOwner } from '../../domain/platform-policy.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/database.js';
import * as usersAdmin from '../../store/repositories/platform-admin.js';
import { markSessionImpersonated } from '../../store/repositories/platform-audit.js';
import type { TokenPair } from '../identity/auth.js';
import type { ClientInfo } from '../identity/index.js';
import { deleteAccountData } from './account-deletion.js';
import { adminPageInput, recordAudit } from './admin-audit.js';
import { type Download, personalDataZip } from './gdpr.js';

export const listUsersInput = z.object({
  ...adminPageInput,
  q: z
    .string()
    .trim()
    .min(1)
    .max(320)
    .optional()
    .describe('Only users whose email, name or handle contains this.'),
});

export const impersonateInput = z.object({
  reason: z.string().trim().min(1, 'Say why, for the audit log').max(500),
});

export interface ImpersonationDeps {
  /** Opens a session for a user as a sign-in does (lockout included). */
  signIn(userId: string, client: ClientInfo): Promise<TokenPair>;
  /** The session an access token belongs to. */
  sessionOf(accessToken: string): Promise<string>;
}

/** The platform owner's view of users: list, details, export, deletion and impersonation. */
export function createAdminUsers(deps: { store: Store; clock: Clock; sign: ImpersonationDeps }) {
  const { store, clock } = deps;
  const db = store.db;
  const now = () => clock.now().toISOString();

  const present = (u: {
    id: string;
    name: string;
    email: string;
    handle: string;
    is_platform_owner: number;
    created_at: string;
    deleted_at: string | null;
  }) => ({ ...u, is_platform_owner: u.is_platform_owner === 1 });

  async function find(userId: string) {
    const user = await usersAdmin.findUserForAdmin(db, userId);
    if (!user) throw notFound('User');
    return user;
  }

  return {
    /** Newest first; `q` matches email, name or handle. */
    async list(actor: Actor, input: z.infer<typeof listUsersInput>) {
      requirePlatformOwner(actor, 'read');
      const rows = await usersAdmin.listUsersForAdmin(db, {
        limit: input.limit + 1,
        ...(input.cursor ? { before: input.cursor } : {}),
        ...(input.q ? { q: input.q } : {}),
      });
      const data = rows.slice(0, input.limit).map(present);
      return { data, next_cursor: rows.length > input.limit ? (data[data.length - 1]?.id ?? null) : null };
    },

    /** A user with their organizations, workspace count and live sessions. */
    async get(actor: Actor, userId: string) {
      requirePlatformOwner(actor, 'read');
      const user = await find(userId);
      const organizations = await usersAdmin.listOrgsOfUserForAdmin(db, userId);
      const workspaces = await usersAdmin.countWorkspaceMembershipsOfUser(db, userId);
      const sessions = await usersAdmin.listLiveSessionsOfUser(db, userId, now());
      return { ...present(user), organizations, workspace_memberships: workspaces, sessions };
    },

    /** The user's GDPR export, as they would get it themselves; the export is audited. */
    async exportUser(actor: Actor, userId: string): Promise<Download> {
      requirePlatformOwner(actor, 'read');
      const user = await find(userId);
      const download = await personalDataZip(store, clock, user.id);
      await recordAudit(db, {
        actorId: actor.userId,
        action: 'user_exported',
        targetType: 'user',
        targetId: user.id,
        at: now(),
      });
      return download;
    },

    /** Deletes the account as its holder would (same rules, same 409s), without their password. */
    async deleteUser(actor: Actor, userId: string): Promise<void> {
      requirePlatformOwner(actor, 'delete');
      const user = await find(userId);
      await deleteAccountData(db, user.id, now());
      await recordAudit(db, {
        actorId: actor.userId,
        action: 'user_deleted',
        targetType: 'user',
        targetId: user.id,
        // No email or name: the audit log outlives the account and must not keep its personal data.
        details: {},
        at: now(),
      });
    },

    /**
     * Signs the platform owner in as another user: a new session of that user, marked as
     * opened by the owner so the app shows a banner, and an audit entry with the reason.
     * Only from a signed-in session (never an API key), never for oneself or a deleted account.
     */
    async impersonate(
      actor: Actor,
      userId: string,
      input: z.infer<typeof impersonateInput>,
      client: ClientInfo,
    ): Promise<TokenPair> {
      requirePlatformOwner(actor, 'write');
      if (actor.via !== 'jwt' && actor.via !== 'cookie')
        throw forbidden('Impersonation needs a signed-in session');
      const user = await find(userId);
      if (user.deleted_at) throw notFound('User');
      if (user.id === actor.userId) {
        throw new AppError('VALIDATION_ERROR', 'You cannot impersonate yourself', {
          details: { field: 'id' },
        });
      }
      const tokens = await deps.sign.signIn(user.id, client);
      const sessionId = await deps.sign.sessionOf(tokens.access_token);
      await db.transaction().execute(async (trx) => {
        await markSessionImpersonated(trx, sessionId, actor.userId);
        await recordAudit(trx, {
          actorId: actor.userId,
          action: 'user_impersonated',
          targetType: 'user',
          targetId: user.id,
          details: { reason: input.reason, session_id: sessionId },
          at: now(),
        });
      });
      return tokens;
    },
  };
}

export type AdminUsers = ReturnType<typeof createAdminUsers>;
