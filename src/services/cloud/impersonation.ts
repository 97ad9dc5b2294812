import type { Actor } from '../../domain/actor.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/database.js';
import { recordAudit } from './admin-audit.js';

/** Who opened the caller's session as them, if the platform owner did. */
export interface ImpersonationStatus {
  impersonated_by: { id: string; name: string; email: string } | null;
  user: { id: string; name: string; email: string };
}

/** The caller's side of an impersonation: the banner's question, and ending it. */
export function createImpersonation(deps: { store: Store; clock: Clock }) {
  const db = deps.store.db;

  async function impersonator(actor: Actor) {
    if (!actor.sessionId) return null;
    const row = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.impersonated_by')
      .select(['users.id', 'users.name', 'users.email'])
      .where('sessions.id', '=', actor.sessionId)
      .where('sessions.user_id', '=', actor.userId)
      .executeTakeFirst();
    return row ?? null;
  }

  return {
    /** Whether the caller's session was opened by the platform owner (the app shows a banner then). */
    async status(actor: Actor): Promise<ImpersonationStatus> {
      const user = await db
        .selectFrom('users')
        .select(['id', 'name', 'email'])
        .where('id', '=', actor.userId)
        .executeTakeFirstOrThrow();
      return { impersonated_by: await impersonator(actor), user };
    },

    /** Ends an impersonated session (its refresh tokens too) and records it; 404 for any other session. */
    async end(actor: Actor): Promise<void> {
      const owner = await impersonator(actor);
      if (!owner || !actor.sessionId) throw notFound('Impersonation');
      const sessionId = actor.sessionId;
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('refresh_tokens').where('session_id', '=', sessionId).execute();
        await trx.deleteFrom('sessions').where('id', '=', sessionId).execute();
        await recordAudit(trx, {
          actorId: owner.id,
          action: 'impersonation_ended',
          targetType: 'user',
          targetId: actor.userId,
          details: { session_id: sessionId },
          at: deps.clock.now().toISOString(),
        });
      });
    },
  };
}

export type Impersonation = ReturnType<typeof createImpersonation>;
