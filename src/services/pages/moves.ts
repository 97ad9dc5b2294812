import type { Kysely } from 'kysely';
import { MoveJournal, workspaceMovesDir } from '../../content/move-journal.js';
import type { WorkspaceFiles } from '../../content/workspace-files.js';
import type { Actor } from '../../domain/actor.js';
import { contentHash } from '../../domain/frontmatter.js';
import { normalizePagePath } from '../../domain/paths.js';
import { CAN } from '../../domain/policy.js';
import { relinkMovedPage, rewriteLinks } from '../../domain/wikilinks.js';
import { AppError } from '../../errors.js';
import type { SearchIndex } from '../../search/search-index.js';
import type { Database, PageRow } from '../../store/schema.js';
import { actorIdOf, record } from '../activity.js';
import { type PageContext, replaceBody } from './context.js';
import { indexForSearch, type PageObject, presentPage } from './page-object.js';

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

/** The index rows of a workspace's pages by path. */
export async function rowsByPath(db: Kysely<Database>, workspaceId: string): Promise<Map<string, PageRow>> {
  const rows = await db.selectFrom('pages').selectAll().where('workspace_id', '=', workspaceId).execute();
  return new Map(rows.map((r) => [r.path, r]));
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
  trx: Kysely<Database>,
  workspaceId: string,
  move: { pageId: string; from: string; to: string; at: string },
): Promise<void> {
  await trx
    .deleteFrom('page_aliases')
    .where('workspace_id', '=', workspaceId)
    .where('old_path', 'in', [move.from, move.to])
    .execute();
  await trx
    .insertInto('page_aliases')
    .values({ workspace_id: workspaceId, old_path: move.from, page_id: move.pageId, created_at: move.at })
    .execute();
}

/**
 * The index side of a move, inside the caller's transaction: the moved row and the rewritten
 * rows with their search documents, the alias from the old path, and the activity.
 * Idempotent, so recovery can run it after a crash whatever part of it had committed.
 */
export async function indexMove(
  trx: Kysely<Database>,
  search: SearchIndex,
  move: IndexedMove,
): Promise<void> {
  const ws = move.workspaceId;
  // A stale row at the target (its file gone) would block the path; an alias there is obsolete now.
  await trx
    .deleteFrom('pages')
    .where('workspace_id', '=', ws)
    .where('path', '=', move.to)
    .where('id', '!=', move.pageId)
    .execute();
  for (const { row, body } of [...(move.moved ? [move.moved] : []), ...move.others]) {
    await trx
      .updateTable('pages')
      .set({
        path: row.path,
        content_hash: row.content_hash,
        updated_at: row.updated_at,
        updated_by: row.updated_by,
      })
      .where('id', '=', row.id)
      .execute();
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

/**
 * Moves (renames) a page keeping its page_id. Under the workspace lock, a journal record
 * (`DATA_DIR/meta/<id>/moves/<ulid>.json`) is written first; then the page is written at its new path
 * with its own relative links recomputed (`relinkMovedPage`), the old file is removed, every
 * other page linking to it is rewritten (`rewriteLinks`, keeping each link's form and the
 * files' frontmatter byte for byte), one transaction updates the rows, records the old path
 * in `page_aliases` and the activity and refreshes the search documents, and the record is
 * removed. A crash in between is finished at the next start (move-recovery.ts); a failure in
 * between (a write or the transaction refused) is finished from the record at once, and the
 * request answers as if nothing had failed when that succeeds. `page-moved` (and
 * `page-updated` for each rewritten page) go out after commit. 404 when the page is absent,
 * 409 when something already exists at the new path.
 */
export async function movePage(
  ctx: PageContext,
  actor: Actor,
  workspace: string,
  rawFrom: string,
  rawTo: string,
): Promise<PageObject> {
  const loc = await ctx.locate(actor, workspace, rawFrom, CAN.edit);
  const to = normalizePagePath(rawTo);
  const from = loc.path;
  const { clock, searchIndex, events, logger } = ctx.deps;
  const actorId = actorIdOf(actor);
  // Set once the page is at `to` but the move is unfinished: its journal record is kept.
  let interrupted = false;

  const moving = ctx.deps.lock.run(loc.workspace.id, async () => {
    const { file, row } = await ctx.requireVisible(loc, await ctx.currentLocked(loc));
    if (to === from) return { moved: row, body: file.body, rewritten: [] as string[] };
    if (await loc.files.exists(to)) {
      throw new AppError('CONFLICT', `A page already exists at ${to}`, { details: { path: to } });
    }
    const now = clock.now().toISOString();

    // Work out every rewrite before touching a file, so a read failure changes nothing.
    const pending = await planLinkRewrites(loc.files, await rowsByPath(ctx.db, loc.workspace.id), from, to);
    const relinked = relinkMovedPage(file.body, from, to);
    // Unchanged, the page is copied byte for byte, as a rename would keep it.
    const movedText = relinked.changed
      ? replaceBody(file, relinked.body)
      : ((await loc.files.readRaw(from)) ?? file.text);

    const journal = new MoveJournal(workspaceMovesDir(ctx.deps.dataDir, loc.workspace.id));
    const entry = await journal.begin({ page_id: row.id, from, to, actor: actorId, started_at: now });
    // Crash-safe by order: the finished page exists at `to` before `from` goes, so at every
    // instant one of them holds the page, and the record says which move to finish.
    try {
      await ctx.fsWrite(to, () => loc.files.writeRaw(to, movedText));
    } catch (error) {
      // Nothing changed unless the write landed before failing (its directory fsync, say).
      if (!(await loc.files.exists(to))) await journal.finish(entry);
      throw error;
    }
    const moved = touched({ ...row, path: to }, relinked.body, now, actorId);
    try {
      await loc.files.remove(from);
      for (const p of pending) await loc.files.writeRaw(p.path, p.text);
      await ctx.db.transaction().execute((trx) =>
        indexMove(trx, searchIndex, {
          workspaceId: loc.workspace.id,
          pageId: row.id,
          from,
          to,
          at: now,
          moved,
          others: pending.flatMap((p) => (p.row ? [touched(p.row, p.body, now, actorId)] : [])),
          activity: { actorId, details: { links_rewritten: pending.map((p) => p.path) } },
        }),
      );
    } catch (error) {
      interrupted = true;
      logger.warn(
        { err: error, workspace_id: loc.workspace.id, page_id: row.id, from, to },
        'a page move failed midway; finishing it from its journal record',
      );
      throw error;
    }
    // The move is complete; a record left behind only makes the next start confirm it.
    await journal.finish(entry).catch((error: unknown) => {
      logger.warn({ err: error, workspace_id: loc.workspace.id }, 'removing a page-move record failed');
    });
    return { moved: moved.row, body: relinked.body, rewritten: pending.map((p) => p.path) };
  });
  const result = await moving.catch(async (error: unknown) => {
    if (!interrupted) throw error;
    // The recovery announces the move itself; if it fails too, the next start tries again.
    const finished = await ctx.deps.moveRecovery.finishPending([loc.workspace]);
    if (finished === 0) throw error;
    return null;
  });
  if (result === null) {
    const at = { ...loc, path: to };
    const { file, row } = await ctx.requireVisible(at, await ctx.current(at));
    return presentPage(row, file.body);
  }

  if (result.moved.path !== from) {
    events.emit('page-moved', {
      workspace_id: loc.workspace.id,
      old_path: from,
      new_path: to,
      actor: actorId,
    });
    for (const path of result.rewritten) {
      events.emit('page-updated', { workspace_id: loc.workspace.id, path, actor: actorId });
    }
  }
  return presentPage(result.moved, result.body);
}
