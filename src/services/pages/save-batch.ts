import path from 'node:path';
import { fsyncDir, stageFile, type StagedFile } from '../../content/atomic-write.js';
import type { WorkspaceFiles } from '../../content/workspace-files.js';
import { parsePageFile } from '../../domain/frontmatter.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { Queryable } from '../../store/repositories/queryable.js';
import type { PageRow } from '../../store/schema.js';
import { type ActivityEntry, recordMany } from '../activity.js';
import type { Current, Located, PageContext } from './context.js';
import { readerTexts } from '../../search/documents.js';
import { indexManyForSearch } from './page-object.js';
import { nextLoopTurn } from '../../lib/event-loop-turn.js';

/** Most saves applied as one batch; the rest wait for the next (bounds one batch's memory and time). */
const MAX_BATCH = 64;
/**
 * Most bytes of page text one batch writes: its search documents are derived in its one
 * transaction, so a batch of large pages would hold the event loop for their sum. The save
 * that crosses it ends the batch; a single larger save still forms a batch of its own.
 */
const MAX_BATCH_BYTES = 256 * 1024;

/** What a save answers once it is applied (or found to change nothing). */
export interface SaveOutcome {
  row: PageRow;
  body: string;
  created: boolean;
  changed: boolean;
}

/** The file and the index rows of one page write, planned under the workspace lock. */
export interface PlannedWrite {
  /** The page file's whole new text. */
  text: string;
  row: PageRow;
  body: string;
  /** A row for the page is in the index (replaced); otherwise it is inserted. */
  exists: boolean;
  activity: ActivityEntry;
}

export interface SavePlan {
  outcome: SaveOutcome;
  /** Absent when the save changes nothing. */
  write?: PlannedWrite;
}

/** What a plan may ask of the batch it is part of. */
export interface BatchState {
  /** New pages earlier saves of this batch create (not yet counted by the index). */
  readonly pagesCreated: number;
}

/** One page write: the page and the rules that turn its current state into a plan. */
export interface SaveJob {
  loc: Located;
  /**
   * Checks the save's rules against `current` (which includes the writes of earlier saves
   * of the same batch to this page) and plans the write; throws to refuse the save.
   * Throwing `DEFER_SAVE` moves the save to the next batch.
   */
  plan(current: Current, batch: BatchState): Promise<SavePlan>;
}

/** Thrown by a plan that must see the earlier saves of its batch in the index first. */
export const DEFER_SAVE = Symbol('defer save');

interface Pending {
  job: SaveJob;
  resolve(outcome: SaveOutcome): void;
  reject(error: unknown): void;
}

interface Queue {
  pending: Pending[];
  scheduled: boolean;
}

interface Entry extends Pending {
  plan: SavePlan;
  write: PlannedWrite;
  /** The earlier write of this batch to the same page, which this one was planned on. */
  prior: Entry | undefined;
  abs?: string;
  staged?: StagedFile;
  /** The body's plain text for search, when derived in the workers (deriveReaderTexts). */
  plainText?: string | undefined;
  error?: unknown;
}

/**
 * Group commit of page writes: saves to one workspace that arrive while a batch holds
 * the workspace lock wait together and are applied as the next batch, under one turn of
 * the lock. Each save's rules are checked in arrival order against the page as the
 * earlier saves of its batch leave it; then every file is staged (temp file and fsync) in
 * parallel, renamed into place in order, each directory fsynced once, and all index rows,
 * activity entries and search documents written in one transaction. A save is answered
 * only then, so its bytes are durable when it is acknowledged; a save that fails (its
 * rules, its file, its rows) fails alone.
 */
export function createSaveBatcher(ctx: PageContext) {
  const { db, deps } = ctx;
  const queues = new Map<string, Queue>();

  function schedule(workspaceId: string, queue: Queue): void {
    queue.scheduled = true;
    let started = false;
    deps.lock
      .run(workspaceId, async () => {
        started = true;
        queue.scheduled = false;
        const jobs = queue.pending.splice(0, MAX_BATCH);
        if (queue.pending.length > 0) schedule(workspaceId, queue);
        try {
          await runBatch(workspaceId, queue, jobs);
        } catch (error) {
          // A fault outside any one save's steps: every save not yet answered fails with it.
          for (const job of jobs) job.reject(error);
        }
      })
      .catch((error: unknown) => {
        // The lock could not be had (a lost PostgreSQL connection): what waited for it fails.
        if (started) return;
        queue.scheduled = false;
        for (const waiting of queue.pending.splice(0)) waiting.reject(error);
      })
      .finally(() => {
        if (!queue.scheduled && queue.pending.length === 0) queues.delete(workspaceId);
      });
  }

  async function runBatch(workspaceId: string, queue: Queue, jobs: Pending[]): Promise<void> {
    if (jobs.length === 0) return;
    // Each page's path is confined once for the batch's read and write of it.
    const files = jobs[0]!.job.loc.files.forLockTurn();
    const entries = await planAll(workspaceId, queue, jobs, files);
    await Promise.all([writeFiles(entries, files), deriveReaderTexts(entries)]);
    await writeRows(entries.filter((e) => e.error === undefined));
    for (const entry of entries) {
      if (entry.error === undefined) entry.resolve(entry.plan.outcome);
      else entry.reject(entry.error);
    }
  }

  /** Checks each save in arrival order; answers the ones that write, settling the others now. */
  async function planAll(
    workspaceId: string,
    queue: Queue,
    jobs: Pending[],
    files: WorkspaceFiles,
  ): Promise<Entry[]> {
    // The last planned write of this batch to each page, which a later save to it is checked against.
    const latest = new Map<string, Entry>();
    const entries: Entry[] = [];
    const deferred: Pending[] = [];
    const state = { pagesCreated: 0 };
    const current = firstReads(jobs, files);
    let bytes = 0;
    for (const [index, pending] of jobs.entries()) {
      const { loc } = pending.job;
      if (bytes >= MAX_BATCH_BYTES) {
        deferred.push(...jobs.slice(index));
        break;
      }
      // Each save's checks in a turn of the event loop of their own, so other requests get theirs.
      if (index > 0) await nextLoopTurn();
      // A page a deferred save waits on keeps its later saves in order behind it.
      if (deferred.some((d) => d.job.loc.path === loc.path)) {
        deferred.push(pending);
        continue;
      }
      try {
        const before = latest.get(loc.path);
        const plan = await pending.job.plan(before ? planned(before.write) : await current(loc), state);
        if (!plan.write) {
          pending.resolve(plan.outcome);
          continue;
        }
        const entry: Entry = { ...pending, plan, write: plan.write, prior: before };
        entries.push(entry);
        if (!plan.write.exists) state.pagesCreated++;
        bytes += plan.write.text.length;
        latest.set(loc.path, entry);
      } catch (error) {
        if (error === DEFER_SAVE) deferred.push(pending);
        else pending.reject(error);
      }
    }
    if (deferred.length > 0) {
      queue.pending.unshift(...deferred);
      if (!queue.scheduled) schedule(workspaceId, queue);
    }
    return entries;
  }

  /**
   * Each page's state for the first save of the batch to it, its file and row read for all
   * pages at once (one after the other, a batch waited on the disk for each page in turn).
   * A page whose file and row disagree, or read after a reconciliation of this batch, is
   * read again under the usual rule (`currentLocked`), which reconciles one at a time.
   */
  function firstReads(jobs: Pending[], files: WorkspaceFiles): (loc: Located) => Promise<Current> {
    const inTurn = (loc: Located): Located => ({ ...loc, files });
    const reads = new Map<string, Promise<{ ok: Current & { synced: boolean } } | { error: unknown }>>();
    for (const { job } of jobs) {
      if (reads.has(job.loc.path)) continue;
      const read = ctx.snapshot(inTurn(job.loc)).then(
        (ok) => ({ ok }),
        (error: unknown) => ({ error }),
      );
      reads.set(job.loc.path, read);
    }
    let reconciled = false;
    return async (loc) => {
      const read = await reads.get(loc.path);
      if (read && 'ok' in read) {
        if (read.ok.synced && !reconciled) return read.ok;
        // currentLocked reconciles the workspace, which reads taken before it may not have seen.
        if (!read.ok.synced) reconciled = true;
      }
      return ctx.currentLocked(inTurn(loc));
    };
  }

  /**
   * Stages every file in parallel, renames each into place once it is staged (in order for
   * one page), then fsyncs each directory once. A rename does not wait for the batch's other
   * files: the directory fsync after all of them is what makes any of them durable.
   */
  async function writeFiles(entries: Entry[], files: WorkspaceFiles): Promise<void> {
    const staging = new Map(entries.map((entry) => [entry, stage(entry, files)]));
    const byPage = new Map<string, Entry[]>();
    for (const entry of entries)
      byPage.set(entry.job.loc.path, [...(byPage.get(entry.job.loc.path) ?? []), entry]);
    await Promise.all(
      [...byPage.values()].map(async (chain) => {
        for (const entry of chain) {
          await staging.get(entry);
          // A save planned on an earlier one that failed must not land on the page as it still is.
          if (entry.error === undefined && entry.prior?.error !== undefined) entry.error = entry.prior.error;
          if (entry.error !== undefined) {
            await entry.staged?.discard();
            continue;
          }
          try {
            await entry.staged!.commit();
          } catch (error) {
            entry.error = ctx.fsFailure(entry.job.loc.path, error);
          }
        }
      }),
    );
    const byDir = new Map<string, Entry[]>();
    for (const entry of entries) {
      if (entry.error !== undefined) continue;
      const dir = path.dirname(entry.abs!);
      byDir.set(dir, [...(byDir.get(dir) ?? []), entry]);
    }
    await Promise.all(
      [...byDir].map(async ([dir, inDir]) => {
        try {
          await fsyncDir(dir);
        } catch (error) {
          for (const entry of inDir) entry.error = error;
        }
      }),
    );
  }

  /** Writes and fsyncs the entry's new text beside its page; a failure is the entry's own. */
  async function stage(entry: Entry, files: WorkspaceFiles): Promise<void> {
    try {
      entry.abs = await files.resolve(entry.job.loc.path);
      entry.staged = await stageFile(entry.abs, entry.write.text);
    } catch (error) {
      entry.error = ctx.fsFailure(entry.job.loc.path, error);
    }
  }

  /** The page as a planned write leaves it. */
  function planned(write: PlannedWrite): Current {
    return { file: { text: write.text, ...parsePageFile(write.text) }, row: write.row };
  }

  /**
   * Several pages' plain texts for search, derived in the render workers while the files are
   * written. A batch of one keeps the quicker inline parse of a short page (documents.ts).
   */
  async function deriveReaderTexts(entries: Entry[]): Promise<void> {
    const worker = deps.plainText;
    // Restricted pages are kept out of search, so their text is never asked for.
    const indexed = entries.filter((e) => e.write.row.restricted !== 1);
    if (!worker || indexed.length < 2) return;
    const texts = await readerTexts(
      indexed.map((e) => e.write.body),
      worker,
    );
    indexed.forEach((entry, i) => (entry.plainText = texts[i]));
  }

  /** One transaction for every written page; if it fails, each page on its own, so one bad row fails alone. */
  async function writeRows(entries: Entry[]): Promise<void> {
    if (entries.length === 0) return;
    try {
      await db.transaction().execute((trx) => writeAll(trx, entries));
      return;
    } catch (error) {
      if (entries.length === 1) {
        entries[0]!.error = error;
        return;
      }
    }
    for (const entry of entries) {
      try {
        await db.transaction().execute((trx) => writeAll(trx, [entry]));
      } catch (error) {
        entry.error = error;
      }
    }
  }

  /** The pages' rows, their activity entries and search documents, a few statements for all. */
  async function writeAll(trx: Queryable, entries: Entry[]): Promise<void> {
    for (const { job, write } of entries) {
      if (write.exists) {
        await pagesTable.replaceRow(trx, write.row);
      } else {
        // A row left at this path by a file removed behind Folio's back would block the insert.
        await pagesTable.deleteAtPath(trx, job.loc.workspace.id, write.row.path);
        await pagesTable.insertRow(trx, write.row);
      }
    }
    await recordMany(
      trx,
      entries.map((e) => e.write.activity),
    );
    // A page written twice in the batch is indexed as the last write leaves it.
    const last = new Map(
      entries.map(({ write, plainText }) => [write.row.id, { row: write.row, body: write.body, plainText }]),
    );
    await indexManyForSearch(trx, deps.searchIndex, [...last.values()]);
  }

  return {
    /** How many saves to the workspace wait for its next batch (for operators' metrics and tests). */
    waiting: (workspaceId: string): number => queues.get(workspaceId)?.pending.length ?? 0,

    /**
     * Applies `job` in the workspace's next batch; resolves once its file is durable and
     * its rows are committed, rejects with what refused or failed it.
     */
    save(job: SaveJob): Promise<SaveOutcome> {
      const workspaceId = job.loc.workspace.id;
      let queue = queues.get(workspaceId);
      if (!queue) {
        queue = { pending: [], scheduled: false };
        queues.set(workspaceId, queue);
      }
      const promise = new Promise<SaveOutcome>((resolve, reject) => {
        queue.pending.push({ job, resolve, reject });
      });
      if (!queue.scheduled) schedule(workspaceId, queue);
      return promise;
    },
  };
}

export type SaveBatcher = ReturnType<typeof createSaveBatcher>;
