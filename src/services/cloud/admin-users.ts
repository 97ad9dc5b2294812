import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { requirePlatformOwner } from '../../domain/platform-policy.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/database.js';
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

  const columns = ['id', 'name', 'email', 'handle', 'is_platform_owner', 'created_at', 'deleted_at'] as const;
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
    const user = await db.selectFrom('users').select(columns).where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound('User');
    return user;
  }

  return {
    /** Newest first; `q` matches email, name or handle. */
    async list(actor: Actor, input: z.infer<typeof listUsersInput>) {
      requirePlatformOwner(actor, 'read');
      let query = db
        .selectFrom('users')
        .select(columns)
        .orderBy('id', 'desc')
        .limit(input.limit + 1);
      if (input.cursor) query = query.where('id', '<', input.cursor);
      if (input.q) {
        const like = `%${input.q.toLowerCase()}%`;
        query = query.where((eb) =>
          eb.or([
            eb('email', 'like', like),
            eb('handle', 'like', like),
            eb(eb.fn('lower', ['name']), 'like', like),
          ]),
        );
      }
      const rows = await query.execute();
      const data = rows.slice(0, input.limit).map(present);
      return { data, next_cursor: rows.length > input.limit ? (data[data.length - 1]?.id ?? null) : null };
    },

    /** A user with their organizations, workspace count and live sessions. */
    async get(actor: Actor, userId: string) {
      requirePlatformOwner(actor, 'read');
      const user = await find(userId);
      const organizations = await db
        .selectFrom('org_members')
        .innerJoin('orgs', 'orgs.id', 'org_members.org_id')
        .select(['orgs.id', 'orgs.handle', 'orgs.name', 'orgs.plan', 'org_members.role'])
        .where('org_members.user_id', '=', userId)
        .execute();
      const workspaces = await db
        .selectFrom('workspace_members')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      const sessions = await db
        .selectFrom('sessions')
        .select(['id', 'device', 'ip', 'created_at', 'last_active_at', 'impersonated_by'])
        .where('user_id', '=', userId)
        .where('expires_at', '>', now())
        .orderBy('last_active_at', 'desc')
        .execute();
      return { ...present(user), organizations, workspace_memberships: Number(workspaces.n), sessions };
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
        await trx
          .updateTable('sessions')
          .set({ impersonated_by: actor.userId })
          .where('id', '=', sessionId)
          .execute();
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
