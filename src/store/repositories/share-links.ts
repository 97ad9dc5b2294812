import type { Selectable } from 'kysely';
import type { ShareLinksTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * `share_links`: links that let whoever holds them join a workspace with a role. Only the
 * SHA-256 of a link's token is kept; `uses` only grows.
 */

export type ShareLinkRow = Selectable<ShareLinksTable>;

/** Stores a new link. */
export async function insertShareLink(db: Queryable, row: ShareLinkRow): Promise<void> {
  await db.insertInto('share_links').values(row).execute();
}

/** A link by id. */
export function findShareLinkById(db: Queryable, id: string): Promise<ShareLinkRow | undefined> {
  return db.selectFrom('share_links').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The link with this token hash, revoked or not. */
export function findShareLinkByTokenHash(
  db: Queryable,
  tokenHash: string,
): Promise<ShareLinkRow | undefined> {
  return db.selectFrom('share_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** The workspace's unrevoked links, newest id first, below the id `before` when given, at most `limit`. */
export function listActiveShareLinks(
  db: Queryable,
  workspaceId: string,
  options: { before?: string | undefined; limit: number },
): Promise<ShareLinkRow[]> {
  let query = db
    .selectFrom('share_links')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('revoked_at', 'is', null);
  if (options.before) query = query.where('id', '<', options.before);
  return query.orderBy('id', 'desc').limit(options.limit).execute();
}

/** Revokes an unrevoked link of the workspace; false when there is no such link. */
export async function revokeShareLink(
  db: Queryable,
  workspaceId: string,
  id: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('share_links')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Spends one use of the link if it is unrevoked, not expired at `now` and has uses left.
 * One conditional update, so `max_uses` holds however many join at once; false when the
 * link could not be used.
 */
export async function spendShareLinkUse(db: Queryable, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('share_links')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where((eb) =>
      eb.and([
        eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]),
        eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
