import { inBatches } from '../batches.js';
import type { Queryable } from './queryable.js';

/*
 * The `page_aliases` table: old paths of moved pages, so their old URLs redirect. One alias
 * per old path of a workspace.
 */

/**
 * Records that the page moved from `from` to `to`: the alias at `from` replaces any earlier
 * one there, and an alias at `to` (a page again) goes.
 */
export async function replaceAlias(
  db: Queryable,
  workspaceId: string,
  move: { pageId: string; from: string; to: string; at: string },
): Promise<void> {
  await db
    .deleteFrom('page_aliases')
    .where('workspace_id', '=', workspaceId)
    .where('old_path', 'in', [move.from, move.to])
    .execute();
  await db
    .insertInto('page_aliases')
    .values({ workspace_id: workspaceId, old_path: move.from, page_id: move.pageId, created_at: move.at })
    .execute();
}

/** Deletes every alias of these pages (pages that are gone), a batch per statement. */
export async function deleteAliasesOfPages(db: Queryable, pageIds: readonly string[]): Promise<void> {
  for (const batch of inBatches(pageIds))
    await db.deleteFrom('page_aliases').where('page_id', 'in', batch).execute();
}
