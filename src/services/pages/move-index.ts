import type { WorkspaceFiles } from '../../content/workspace-files.js';
import { contentHash } from '../../domain/frontmatter.js';
import { rewriteLinks } from '../../domain/wikilinks.js';
import type { SearchIndex } from '../../search/search-index.js';
import { replaceAlias } from '../../store/repositories/page-aliases.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { Queryable } from '../../store/repositories/queryable.js';
import type { PageRow } from '../../store/schema.js';
import { record } from '../activity.js';
import { indexForSearch, replaceBody } from './page-object.js';

/*
 * The steps of a page move that do not depend on who asked: planning the link rewrites and
 * the index update. `movePage` (moves.ts) runs them for a request, move-recovery.ts after a
 * crash, and reconciliation records the alias of a rename found on disk.
 */

/** An indexed page and the body it has after a move's file work. */
export interface Rewritten {
  row: PageRow;
  body: string;
}

/** A page whose links to the moved page a move rewrites; `row` is its index row, if it has one. */
export interface LinkRewrite {
  path: string;
  row: PageRow | undefined;
  /** The whole new file: frontmatter kept byte for byte, rewritten body. */
  text: string;
  body: string;
}

/**
 * Works out, without writing, how every page but `from` and `to` changes when its links to
 * `from` are made to point at `to` (`rewriteLinks`, keeping each link's form). Files are walked
 * rather than rows so that a page not yet indexed (written by git) is rewritten too.
 */
export async function planLinkRewrites(
  files: WorkspaceFiles,
  rows: ReadonlyMap<string, PageRow>,
  from: string,
  to: string,
): Promise<LinkRewrite[]> {
  const pending: LinkRewrite[] = [];
  for (const path of await files.listPages()) {
    if (path === from || path === to) continue;
    const file = await files.read(path);
    if (!file) continue;
    const rewritten = rewriteLinks(file.body, path, from, to);
    if (!rewritten.changed) continue;
    pending.push({
      path,
      row: rows.get(path),
      text: replaceBody(file, rewritten.body),
      body: rewritten.body,
    });
  }
  return pending;
}

/** What a move changes in the index once its files are in place. */
export interface IndexedMove {
  workspaceId: string;
  pageId: string;
  from: string;
  to: string;
  at: string;
  /** The moved page's updated row and body; absent when it has no row to move (not indexed yet). */
  moved?: Rewritten;
  /** Rows of the pages whose links were rewritten, with their new hashes. */
  others: Rewritten[];
  /** The `page_moved` entry; absent when it is already recorded. */
  activity?: { actorId: string | null; details: Record<string, unknown> };
}

/**
 * Makes a moved page's old path redirect to it: the alias from `from` replaces any earlier
 * one there, and an alias at `to` (now a page again) goes. Inside the caller's transaction.
 */
export async function recordAlias(
  trx: Queryable,
  workspaceId: string,
  move: { pageId: string; from: string; to: string; at: string },
): Promise<void> {
  await replaceAlias(trx, workspaceId, move);
}

/**
 * The index side of a move, inside the caller's transaction: the moved row and the rewritten
 * rows with their search documents, the alias from the old path, and the activity.
 * Idempotent, so recovery can run it after a crash whatever part of it had committed.
 */
export async function indexMove(trx: Queryable, search: SearchIndex, move: IndexedMove): Promise<void> {
  const ws = move.workspaceId;
  // A stale row at the target (its file gone) would block the path; an alias there is obsolete now.
  await pagesTable.deleteAtPath(trx, ws, move.to, { exceptId: move.pageId });
  for (const { row, body } of [...(move.moved ? [move.moved] : []), ...move.others]) {
    await pagesTable.updateLocation(trx, row);
    await indexForSearch(trx, search, row, body);
  }
  await recordAlias(trx, ws, move);
  if (move.activity) {
    await record(trx, {
      workspaceId: ws,
      action: 'page_moved',
      path: move.to,
      pageId: move.pageId,
      actorId: move.activity.actorId,
      at: move.at,
      details: { old_path: move.from, new_path: move.to, ...move.activity.details },
    });
  }
}

/** `row` and `body` as they stand after a change by `actorId` at `at`. */
export const touched = (row: PageRow, body: string, at: string, actorId: string | null): Rewritten => ({
  row: { ...row, content_hash: contentHash(body), updated_at: at, updated_by: actorId },
  body,
});
