import { ulid } from 'ulid';
import { isWorkspaceTree, workspaceDir } from '../../content/workspace-meta.js';
import type { EventBus } from '../../events/bus.js';
import { type PageFile, WorkspaceFiles } from '../../content/workspace-files.js';
import { contentHash } from '../../domain/frontmatter.js';
import type { WorkspaceLock } from '../../git/lock.js';
import type { Logger } from '../../logger.js';
import type { SearchIndex } from '../../search/search-index.js';
import type { Store } from '../../store/database.js';
import { deleteAliasesOfPages } from '../../store/repositories/page-aliases.js';
import * as pagesTable from '../../store/repositories/pages.js';
import * as workspacesTable from '../../store/repositories/workspaces.js';
import type { PageRow, WorkspaceRow } from '../../store/schema.js';
import { type ActivityEntry, recordMany } from '../activity.js';
import { recordAlias } from './move-index.js';
import type { Clock } from '../../lib/clock.js';
import {
  type FrontmatterMode,
  defaultStatusOf,
  frontmatterModeOf,
  indexManyForSearch,
  rowChanged,
  rowFor,
} from './page-object.js';
import { type Found, scanPages, type SkippedFile, writePageIds } from './reconcile-files.js';

/** How often start-up reconciliation reports its progress in the log. */
const PROGRESS_EVERY_MS = 2_000;

export { ULID_RE } from './reconcile-files.js';

export interface ReconcileOptions {
  /** Rewrite every row and search document, changed or not (what `rebuild` does). */
  force?: boolean;
  /** Record activity for what changed on disk (not during a rebuild, which would flood the feed). */
  recordActivity?: boolean;
}

/** What one reconciliation found; `changed` lists every path whose index entry changed. */
export interface ReconcileSummary {
  workspace_id: string;
  slug: string;
  pages: number;
  added: number;
  updated: number;
  moved: number;
  removed: number;
  ids_written: number;
  unchanged: number;
  /** Files left out of the index, and why: names the API cannot address, pages above the size limit. */
  skipped: SkippedFile[];
  changed: string[];
}

export interface ReconcilerDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  searchIndex: SearchIndex;
  lock: WorkspaceLock;
  /** Told of the files that got a page id written (`ids-written`), which git commits. */
  events?: EventBus;
  dataDir: string;
  frontmatterMode: FrontmatterMode;
  /** Page files above this size are reported in `skipped`, not indexed (default: no limit). */
  maxPageBytes?: number;
}

interface Assigned {
  found: Found;
  id: string;
  previous: PageRow | undefined;
}

/**
 * Makes a workspace's page index match its files.
 * A file is matched to a row by its frontmatter `id`, then by path, then by
 * content hash among rows whose file is gone (a move on disk); anything else
 * is a new page. Files lacking a usable `id` get one written atomically;
 * rows whose files are gone are removed; search documents follow.
 */
export function createReconciler(deps: ReconcilerDeps) {
  const { store, searchIndex } = deps;
  const db = store.db;

  /** Pairs each file with a page id (see createReconciler); rows left over have lost their files. */
  async function match(workspaceId: string, rows: PageRow[], found: Found[]) {
    const byId = new Map(rows.map((r) => [r.id, r]));
    const byPath = new Map(rows.map((r) => [r.path, r]));
    const claimed = new Set<string>();
    const assigned = new Map<Found, Assigned>();
    const claim = (f: Found, id: string, previous: PageRow | undefined) => {
      claimed.add(id);
      assigned.set(f, { found: f, id, previous });
    };
    // Ids other workspaces' pages already use (a file copied between workspaces) are not taken over.
    const foreign = await pagesTable.idsUsedElsewhere(
      db,
      workspaceId,
      found.flatMap((f) => (f.fmId && !byId.has(f.fmId) ? [f.fmId] : [])),
    );
    // A copied file repeats its original's id: the copy at the row's own path keeps it.
    const withId = found.filter((f) => f.fmId !== undefined);
    const atHome = (f: Found) => byId.get(f.fmId!)?.path === f.path;
    for (const f of [...withId.filter(atHome), ...withId.filter((f) => !atHome(f))]) {
      if (!claimed.has(f.fmId!) && !foreign.has(f.fmId!)) claim(f, f.fmId!, byId.get(f.fmId!));
    }
    for (const f of found) {
      const row = byPath.get(f.path);
      if (!assigned.has(f) && row && !claimed.has(row.id)) claim(f, row.id, row);
    }
    // Rows whose files are gone, by content hash, in the order of `rows`.
    const present = new Set(found.map((f) => f.path));
    const orphans = new Map<string, PageRow[]>();
    for (const r of rows) {
      if (claimed.has(r.id) || present.has(r.path)) continue;
      const same = orphans.get(r.content_hash);
      if (same) same.push(r);
      else orphans.set(r.content_hash, [r]);
    }
    for (const f of found) {
      if (assigned.has(f) || orphans.size === 0) continue;
      const row = orphans.get(contentHash(f.file.body))?.find((r) => !claimed.has(r.id));
      if (row) claim(f, row.id, row);
    }
    for (const f of found) if (!assigned.has(f)) claim(f, ulid(), undefined);
    return { assigned: [...assigned.values()], removed: rows.filter((r) => !claimed.has(r.id)) };
  }

  /**
   * Reconciles one workspace. The caller must hold the workspace's lock (page
   * writes and git sync run under it); use `reconcile` otherwise. Files that got a
   * page id are announced as `ids-written`, even when indexing them then fails.
   */
  async function reconcileLocked(
    workspace: WorkspaceRow,
    options: ReconcileOptions = {},
  ): Promise<ReconcileSummary> {
    const idsWritten: string[] = [];
    try {
      return await reconcileFiles(workspace, options, idsWritten);
    } finally {
      if (idsWritten.length > 0)
        deps.events?.emit('ids-written', { workspace_id: workspace.id, paths: idsWritten });
    }
  }

  /** reconcileLocked's work; adds to `idsWritten` the paths whose file got a page id. */
  async function reconcileFiles(
    workspace: WorkspaceRow,
    options: ReconcileOptions,
    idsWritten: string[],
  ): Promise<ReconcileSummary> {
    const now = deps.clock.now().toISOString();
    const files = new WorkspaceFiles(workspaceDir(deps.dataDir, workspace.id));
    const mode = frontmatterModeOf(workspace, deps.frontmatterMode);
    const defaultStatus = defaultStatusOf(workspace);
    const rows = await pagesTable.listByWorkspace(db, workspace.id);
    // A missing tree (an unmounted volume, a mistyped DATA_DIR, or an empty one that `git init`
    // recreated) must not read as "every page deleted".
    if (!(await isWorkspaceTree(files.root, workspace.id))) {
      throw new Error(`${files.root} is not this workspace's tree; the index was left as it is`);
    }
    const { found, skipped } = await scanPages(files, deps.maxPageBytes);
    if (skipped.length > 0)
      deps.logger.warn({ workspace_id: workspace.id, skipped }, 'some files were left out of the index');
    const { assigned, removed } = await match(workspace.id, rows, found);
    const withIds = await writePageIds(
      files,
      assigned.filter((a) => a.found.file.error === undefined && a.found.fmId !== a.id),
    );
    idsWritten.push(...withIds.keys());

    const summary: ReconcileSummary = {
      workspace_id: workspace.id,
      slug: workspace.slug,
      pages: assigned.length,
      added: 0,
      updated: 0,
      moved: 0,
      removed: removed.length,
      ids_written: withIds.size,
      unchanged: 0,
      skipped,
      changed: removed.map((r) => r.path),
    };
    const writes: Array<{ row: PageRow; body: string; kind: 'added' | 'updated' | 'moved' | 'same' }> = [];
    for (const { found: f, id, previous } of assigned) {
      const file: Pick<PageFile, 'frontmatter' | 'body' | 'error'> = withIds.get(f.path) ?? f.file;
      let row = rowFor({
        id,
        workspaceId: workspace.id,
        path: f.path,
        file,
        previous,
        mode,
        defaultStatus,
        now: f.mtime,
        updatedBy: null,
      });
      const kind = !previous
        ? 'added'
        : previous.path !== f.path
          ? 'moved'
          : rowChanged(previous, row)
            ? 'updated'
            : 'same';
      if (kind === 'same' && previous)
        row = { ...row, updated_at: previous.updated_at, updated_by: previous.updated_by };
      if (kind === 'same') summary.unchanged++;
      else {
        summary[kind]++;
        summary.changed.push(f.path);
      }
      if (kind !== 'same' || options.force) writes.push({ row, body: file.body, kind });
    }

    const anyChange = options.force || removed.length > 0 || writes.length > 0;
    if (!anyChange) return summary;
    const feed = options.recordActivity === true && rows.length > 0;
    const pathBefore = new Map(rows.map((r) => [r.id, r.path]));
    const note = (action: string, path: string, pageId: string, details: Record<string, unknown> = {}) =>
      ({
        workspaceId: workspace.id,
        action,
        path,
        pageId,
        actorId: null,
        at: now,
        details: { ...details, source: 'disk' },
      }) satisfies ActivityEntry;
    // A batch of statements per step, not a few per page: a pull can change every page.
    const removedIds = removed.map((r) => r.id);
    const written = writes.map((w) => w.row);
    await db.transaction().execute(async (trx) => {
      if (options.force) await searchIndex.removeWorkspace(trx, workspace.id);
      // Rows that leave or change path go first, so no path is held twice mid-way.
      const gone = [...removedIds, ...writes.filter((w) => w.kind === 'moved').map((w) => w.row.id)];
      await pagesTable.deleteByIds(trx, gone);
      await deleteAliasesOfPages(trx, removedIds);
      await searchIndex.removeMany(trx, removedIds);
      await pagesTable.upsertRows(trx, written);
      // A rename found on disk or pulled from git redirects its old URL, as a move through Folio does.
      for (const w of writes) {
        const from = pathBefore.get(w.row.id);
        if (w.kind === 'moved' && from !== undefined)
          await recordAlias(trx, workspace.id, { pageId: w.row.id, from, to: w.row.path, at: now });
      }
      await indexManyForSearch(trx, searchIndex, writes);
      if (!feed) return;
      await recordMany(trx, [
        ...removed.map((r) => note('page_deleted', r.path, r.id)),
        ...writes.flatMap((w) => {
          if (w.kind === 'same') return [];
          const { id, path } = w.row;
          if (w.kind === 'moved')
            return [note('page_moved', path, id, { old_path: pathBefore.get(id), new_path: path })];
          return [note(w.kind === 'added' ? 'page_created' : 'page_updated', path, id)];
        }),
      ]);
    });
    return summary;
  }

  /** Workspaces with a queued `reconcileSoon`; a second request while one waits adds nothing. */
  const queued = new Set<string>();

  let background: Promise<void> | null = null;
  // Pending from the start: a server is not ready until its first reconciliation has run.
  let progress: { done: number; total: number | null } | null = { done: 0, total: null };
  let stopping = false;

  return {
    reconcileLocked,

    /**
     * Reconciles the workspace once the lock is free, in the background: what a reader
     * that found the index behind the files asks for, so it never waits on a writer.
     * Requests made while one is queued are served by that one.
     */
    reconcileSoon(workspace: WorkspaceRow): void {
      if (queued.has(workspace.id)) return;
      queued.add(workspace.id);
      void deps.lock
        .run(workspace.id, () => {
          queued.delete(workspace.id);
          return reconcileLocked(workspace, { recordActivity: true });
        })
        .catch((error: unknown) => {
          queued.delete(workspace.id);
          deps.logger.error({ err: error, workspace_id: workspace.id }, 'reconciling a workspace failed');
        });
    },

    /** Reconciles one workspace under its lock. */
    reconcile(workspace: WorkspaceRow, options: ReconcileOptions = {}): Promise<ReconcileSummary> {
      return deps.lock.run(workspace.id, () => reconcileLocked(workspace, options));
    },

    /**
     * Starts reconciling every live workspace in the background, one at a
     * time, so the server answers at once while files changed during downtime
     * are picked up. A page read meanwhile is reconciled on demand.
     */
    startBackground(): void {
      if (background) return;
      stopping = false;
      const running = { done: 0, total: null as number | null };
      progress = running;
      background = (async () => {
        const live = await workspacesTable.listLive(db);
        running.total = live.length;
        deps.logger.info({ workspaces: live.length }, 'start-up reconciliation: checking every workspace');
        let lastReport = Date.now();
        for (const ws of live) {
          if (stopping) return;
          try {
            const s = await deps.lock.run(ws.id, () => reconcileLocked(ws, { recordActivity: true }));
            if (s.changed.length > 0) deps.logger.info({ summary: s }, 'reconciled workspace with its files');
          } catch (error) {
            deps.logger.error({ err: error, workspace_id: ws.id }, 'reconciling a workspace failed');
          }
          running.done += 1;
          if (Date.now() - lastReport >= PROGRESS_EVERY_MS) {
            lastReport = Date.now();
            deps.logger.info({ done: running.done, total: live.length }, 'start-up reconciliation progress');
          }
        }
        deps.logger.info({ workspaces: live.length }, 'start-up reconciliation done');
      })()
        .catch((error: unknown) => deps.logger.error({ err: error }, 'startup reconciliation failed'))
        .finally(() => {
          progress = null;
        });
    },

    /**
     * Where start-up reconciliation stands: null once it has finished; `total` is null
     * until it has started and listed the workspaces.
     */
    startupProgress(): { done: number; total: number | null } | null {
      return progress && { ...progress };
    },

    /** Resolves when start-up reconciliation has finished (at once when it never started). */
    startupDone: (): Promise<void> => background ?? Promise.resolve(),

    /** Resolves once the background run (if any) has stopped between two workspaces. */
    async stop(): Promise<void> {
      stopping = true;
      await background;
      background = null;
    },
  };
}

export type Reconciler = ReturnType<typeof createReconciler>;
