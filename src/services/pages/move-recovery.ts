import { type MoveRecord, MoveJournal, workspaceMovesDir } from '../../content/move-journal.js';
import { type PageFile, WorkspaceFiles } from '../../content/workspace-files.js';
import { workspaceDir } from '../../content/workspace-meta.js';
import { contentHash, readPageMeta } from '../../domain/frontmatter.js';
import { rewriteLinks } from '../../domain/wikilinks.js';
import type { EventBus } from '../../events/bus.js';
import type { WorkspaceLock } from '../../git/lock.js';
import type { Logger } from '../../logger.js';
import type { SearchIndex } from '../../search/search-index.js';
import type { Store } from '../../store/database.js';
import type { PageRow } from '../../store/schema.js';
import type { Clock } from '../../lib/clock.js';
import { listPageMoveDetailsSince } from '../../store/repositories/activity.js';
import * as pagesTable from '../../store/repositories/pages.js';
import * as workspacesTable from '../../store/repositories/workspaces.js';
import { indexMove, type LinkRewrite, touched } from './move-index.js';
import { replaceBody } from './page-object.js';

export interface MoveRecoveryDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  searchIndex: SearchIndex;
  events: EventBus;
  /** The page writes' lock: records are read again under it, so a move still running elsewhere is left alone. */
  lock: WorkspaceLock;
  dataDir: string;
}

/** A recorded move finished after a crash: what to announce once the lock is released. */
interface FinishedMove {
  move: MoveRecord;
  linksRewritten: string[];
}

/**
 * Finishes page moves a crash interrupted (see `movePage`: a journal record is written before
 * any file changes and removed after the index commit). Runs at start before reconciliation
 * indexes the files, and in `folio rebuild`, so a crashed move ends exactly as a completed one
 * would: the page at its new path only, every link pointing there, the alias and the activity.
 */
export function createMoveRecovery(deps: MoveRecoveryDeps) {
  const db = deps.store.db;

  /**
   * The pages still linking to `from`, rewritten to link to `to`, and the pages the move had
   * already rewritten before the crash: their index row is older than their file, and undoing
   * the rewrite gives exactly the indexed body. The latter are re-indexed here with the move
   * rather than left for reconciliation to report as edits found on disk.
   */
  async function linkRewrites(files: WorkspaceFiles, rows: ReadonlyMap<string, PageRow>, move: MoveRecord) {
    const pending: LinkRewrite[] = [];
    const earlier: LinkRewrite[] = [];
    for (const path of await files.listPages()) {
      if (path === move.from || path === move.to) continue;
      const file = await files.read(path);
      if (!file) continue;
      const row = rows.get(path);
      const rewritten = rewriteLinks(file.body, path, move.from, move.to);
      if (rewritten.changed) {
        pending.push({ path, row, text: replaceBody(file, rewritten.body), body: rewritten.body });
      } else if (
        row &&
        row.content_hash !== contentHash(file.body) &&
        contentHash(rewriteLinks(file.body, path, move.to, move.from).body) === row.content_hash
      ) {
        earlier.push({ path, row, text: file.text, body: file.body });
      }
    }
    return { pending, earlier };
  }

  /** Whether the move's `page_moved` entry was committed (or reconciliation saw the move). */
  async function activityRecorded(workspaceId: string, move: MoveRecord): Promise<boolean> {
    const entries = await listPageMoveDetailsSince(db, workspaceId, move.page_id, move.started_at);
    return entries.some((text) => {
      try {
        const details = JSON.parse(text) as Record<string, unknown>;
        return details.old_path === move.from && details.new_path === move.to;
      } catch {
        return false;
      }
    });
  }

  /**
   * Finishes one recorded move, or answers null when it never reached its first file write.
   * Every step is idempotent, so a crash during recovery is recovered the same way.
   */
  async function finishMove(
    workspaceId: string,
    files: WorkspaceFiles,
    move: MoveRecord,
  ): Promise<FinishedMove | null> {
    // A file without a readable id still counts: a page with broken frontmatter moves too.
    const isThePage = (f: PageFile | null): f is PageFile =>
      f !== null && (readPageMeta(f.frontmatter).id === move.page_id || f.error !== undefined);
    const [atTo, atFrom] = await Promise.all([files.read(move.to), files.read(move.from)]);
    if (!isThePage(atTo)) return null;
    // The finished page is written at `to` before `from` is removed, so `from` is a leftover now.
    if (isThePage(atFrom)) await files.remove(move.from);

    const rows = await pagesTable.mapByPath(db, workspaceId);
    const { pending, earlier } = await linkRewrites(files, rows, move);
    for (const p of pending) await files.writeRaw(p.path, p.text);

    const now = deps.clock.now().toISOString();
    const actorId = move.actor;
    const rewritten = [...earlier, ...pending].sort((a, b) =>
      a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
    );
    const linksRewritten = rewritten.map((p) => p.path);
    const row = await pagesTable.findById(db, workspaceId, move.page_id);
    const recorded = await activityRecorded(workspaceId, move);
    // Without a row (a lost index being rebuilt) reconciliation adds the page from its file;
    // the alias has no foreign key, so it is kept for the row to come.
    await db.transaction().execute((trx) =>
      indexMove(trx, deps.searchIndex, {
        workspaceId,
        pageId: move.page_id,
        from: move.from,
        to: move.to,
        at: now,
        ...(row && row.path !== move.to
          ? { moved: touched({ ...row, path: move.to }, atTo.body, now, actorId) }
          : {}),
        others: rewritten.flatMap((p) => (p.row ? [touched(p.row, p.body, now, actorId)] : [])),
        ...(recorded
          ? {}
          : { activity: { actorId, details: { links_rewritten: linksRewritten, recovered: true } } }),
      }),
    );
    return { move, linksRewritten };
  }

  /** Finishes every recorded move of one workspace tree; the caller holds its lock. */
  async function finishPendingLocked(workspaceId: string): Promise<FinishedMove[]> {
    const files = new WorkspaceFiles(workspaceDir(deps.dataDir, workspaceId));
    const journal = new MoveJournal(workspaceMovesDir(deps.dataDir, workspaceId));
    await journal.removeTempFiles();
    const finished: FinishedMove[] = [];
    for (const id of await journal.list()) {
      const move = await journal.read(id);
      if (move === undefined) continue; // finished by the process that started it
      const where = { workspace_id: workspaceId, record: id };
      if (move === null) {
        deps.logger.warn(
          where,
          'a page-move record is unreadable; it was left in the move journal for a look',
        );
        continue;
      }
      const about = { ...where, page_id: move.page_id, from: move.from, to: move.to };
      const done = await finishMove(workspaceId, files, move);
      await journal.finish(id);
      if (done) {
        finished.push(done);
        deps.logger.info(
          { ...about, links_rewritten: done.linksRewritten.length },
          'finished a page move that a crash interrupted',
        );
      } else {
        deps.logger.info(about, 'dropped the record of a page move that a crash stopped before it began');
      }
    }
    return finished;
  }

  return {
    /**
     * Finishes the interrupted moves of the given workspaces (every live one by default),
     * each under its lock; one workspace failing does not stop the others, and its records
     * stay for the next try. Answers how many moves were finished.
     */
    async finishPending(only?: ReadonlyArray<{ id: string }>): Promise<number> {
      const list = only ?? (await workspacesTable.listLive(db));
      let count = 0;
      for (const ws of list) {
        try {
          const journal = new MoveJournal(workspaceMovesDir(deps.dataDir, ws.id));
          if (!(await journal.hasEntries())) continue;
          const finished = await deps.lock.run(ws.id, () => finishPendingLocked(ws.id));
          count += finished.length;
          for (const { move, linksRewritten } of finished) {
            const actor = move.actor;
            deps.events.emit('page-moved', {
              workspace_id: ws.id,
              old_path: move.from,
              new_path: move.to,
              actor,
            });
            for (const path of linksRewritten)
              deps.events.emit('page-updated', { workspace_id: ws.id, path, actor });
          }
        } catch (error) {
          deps.logger.error({ err: error, workspace_id: ws.id }, 'finishing interrupted page moves failed');
        }
      }
      return count;
    },
  };
}

export type MoveRecovery = ReturnType<typeof createMoveRecovery>;
