import type { Actor } from '../../domain/actor.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/database.js';
import * as audit from '../../store/repositories/platform-audit.js';
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
    return (await audit.findImpersonatorOfSession(db, actor.sessionId, actor.userId)) ?? null;
  }

  return {
    /** Whether the caller's session was opened by the platform owner (the app shows a banner then). */
    async status(actor: Actor): Promise<ImpersonationStatus> {
      const user = await audit.findUserNameAndEmail(db, actor.userId);
      if (!user) throw new Error(`The signed-in user ${actor.userId} has no row`);
      return { impersonated_by: await impersonator(actor), user };
    },

    /** Ends an impersonated session (its refresh tokens too) and records it; 404 for any other session. */
    async end(actor: Actor): Promise<void> {
      const owner = await impersonator(actor);
      if (!owner || !actor.sessionId) throw notFound('Impersonation');
      const sessionId = actor.sessionId;
      await db.transaction().execute(async (trx) => {
        await audit.deleteSessionWithRefreshTokens(trx, sessionId);
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
