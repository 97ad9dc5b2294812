import type { Selectable } from 'kysely';
import type { InvitationsTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * `invitations` to workspaces. Only the SHA-256 of an invitation's token is kept. An
 * invitation is pending until it is accepted (`accepted_at`), revoked (`revoked_at`) or
 * past `expires_at`; its row stays after.
 */

export type InvitationRow = Selectable<InvitationsTable>;

/** Stores a new invitation. */
export async function insertInvitation(db: Queryable, row: InvitationRow): Promise<void> {
  await db.insertInto('invitations').values(row).execute();
}

/** The invitation with this token hash, in whatever state. */
export function findInvitationByTokenHash(
  db: Queryable,
  tokenHash: string,
): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * The workspace's pending invitations (neither accepted nor revoked, expiring after
 * `now`), newest id first, below the id `before` when given, at most `limit`.
 */
export function listPendingInvitations(
  db: Queryable,
  workspaceId: string,
  options: { now: string; before?: string | undefined; limit: number },
): Promise<InvitationRow[]> {
  let query = db
    .selectFrom('invitations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', options.now);
  if (options.before) query = query.where('id', '<', options.before);
  return query.orderBy('id', 'desc').limit(options.limit).execute();
}

/** Whether the user has ever sent an invitation. */
export async function userHasInvited(db: Queryable, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('invitations')
    .select('id')
    .where('invited_by', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Revokes, at `at`, every open (unaccepted, unrevoked) invitation of `email` to the workspace. */
export async function revokeOpenInvitationsOf(
  db: Queryable,
  workspaceId: string,
  email: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('invitations')
    .set({ revoked_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes one open invitation of the workspace; false when there is no such open invitation. */
export async function revokeInvitation(
  db: Queryable,
  workspaceId: string,
  id: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Marks an open invitation accepted by `userId` at `at`. A conditional update: of two
 * concurrent acceptances only one answers true.
 */
export async function acceptInvitation(
  db: Queryable,
  id: string,
  userId: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ accepted_at: at, accepted_by: userId })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
