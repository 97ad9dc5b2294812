import { MoveJournal, workspaceMovesDir } from '../../content/move-journal.js';
import type { Actor } from '../../domain/actor.js';
import { keepPageExtension, normalizePagePath } from '../../domain/paths.js';
import { CAN } from '../../domain/policy.js';
import { relinkMovedPage } from '../../domain/wikilinks.js';
import { AppError } from '../../errors.js';
import type { CommitAuthor } from '../../store/repositories/users.js';
import * as pagesTable from '../../store/repositories/pages.js';
import { actorIdOf } from '../activity.js';
import type { PageContext } from './context.js';
import { indexMove, planLinkRewrites, touched } from './move-index.js';
import { type PageObject, presentPage, replaceBody } from './page-object.js';

/** A page whose links to the moved one were rewritten, and its title (for its commit). */
type Rewritten = { path: string; title: string };
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
  /** How the move's commit names the mover, carried by its events; looked up later when absent. */
  author?: CommitAuthor,
): Promise<PageObject> {
  const loc = await ctx.locate(actor, workspace, rawFrom, CAN.edit);
  const from = loc.path;
  const to = normalizePagePath(keepPageExtension(rawTo, from));
  const { clock, searchIndex, events, logger } = ctx.deps;
  const actorId = actorIdOf(actor);
  // Set once the page is at `to` but the move is unfinished: its journal record is kept.
  let interrupted = false;

  const moving = ctx.deps.lock.run(loc.workspace.id, async () => {
    const { file, row } = await ctx.requireVisible(loc, await ctx.currentLocked(loc));
    if (to === from) return { moved: row, body: file.body, rewritten: [] as Rewritten[] };
    if (await loc.files.exists(to)) {
      throw new AppError('CONFLICT', `A page already exists at ${to}`, { details: { path: to } });
    }
    const now = clock.now().toISOString();

    // Work out every rewrite before touching a file, so a read failure changes nothing.
    const pending = await planLinkRewrites(
      loc.files,
      await pagesTable.mapByPath(ctx.db, loc.workspace.id),
      from,
      to,
    );
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
    const rewritten = pending.map((p): Rewritten => ({ path: p.path, title: p.row?.title ?? p.path }));
    return { moved: moved.row, body: relinked.body, rewritten };
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
      ...(author ? { author } : {}),
    });
    for (const { path, title } of result.rewritten) {
      events.emit('page-updated', {
        ...{ workspace_id: loc.workspace.id, path, actor: actorId, title },
        ...(author ? { author } : {}),
      });
    }
  }
  return presentPage(result.moved, result.body);
}
