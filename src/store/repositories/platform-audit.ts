import type { Selectable } from 'kysely';
import type { AdminAuditTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * The platform owner's audit log (appended to, never updated) and the impersonated
 * sessions it records.
 */

export type AdminAuditRow = Selectable<AdminAuditTable>;

/** Appends one entry; pass the transaction of the action it records so both commit together. */
export async function insertAuditEntry(db: Queryable, row: AdminAuditRow): Promise<void> {
  await db.insertInto('admin_audit').values(row).execute();
}

/**
 * Entries newest first (by id), each with its actor's current name; `before` is a cursor
 * (an id), `targetId` keeps the entries about one organization, user or domain.
 */
export async function listAuditEntries(
  db: Queryable,
  options: { limit: number; before?: string; targetId?: string },
) {
  let query = db
    .selectFrom('admin_audit')
    .leftJoin('users', 'users.id', 'admin_audit.actor_id')
    .select([
      'admin_audit.id',
      'admin_audit.action',
      'admin_audit.actor_id',
      'users.name as actor_name',
      'admin_audit.target_type',
      'admin_audit.target_id',
      'admin_audit.details',
      'admin_audit.created_at',
    ])
    .orderBy('admin_audit.id', 'desc')
    .limit(options.limit);
  if (options.before !== undefined) query = query.where('admin_audit.id', '<', options.before);
  if (options.targetId !== undefined) query = query.where('admin_audit.target_id', '=', options.targetId);
  return query.execute();
}

/** Marks a session as opened by the platform owner `ownerId` (the app shows a banner in it). */
export async function markSessionImpersonated(
  db: Queryable,
  sessionId: string,
  ownerId: string,
): Promise<void> {
  await db.updateTable('sessions').set({ impersonated_by: ownerId }).where('id', '=', sessionId).execute();
}

/**
 * The platform owner who opened the user's session `sessionId` as them, or undefined when
 * the session is not the user's or nobody impersonated them in it.
 */
export async function findImpersonatorOfSession(
  db: Queryable,
  sessionId: string,
  userId: string,
): Promise<{ id: string; name: string; email: string } | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.impersonated_by')
    .select(['users.id', 'users.name', 'users.email'])
    .where('sessions.id', '=', sessionId)
    .where('sessions.user_id', '=', userId)
    .executeTakeFirst();
}

/** Deletes a session with its refresh tokens. */
export async function deleteSessionWithRefreshTokens(db: Queryable, sessionId: string): Promise<void> {
  await db.deleteFrom('refresh_tokens').where('session_id', '=', sessionId).execute();
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** A user's id, name and email, or undefined. */
export async function findUserNameAndEmail(
  db: Queryable,
  userId: string,
): Promise<{ id: string; name: string; email: string } | undefined> {
  return db.selectFrom('users').select(['id', 'name', 'email']).where('id', '=', userId).executeTakeFirst();
}
