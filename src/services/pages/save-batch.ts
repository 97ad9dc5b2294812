import path from 'node:path';
import { fsyncDir, stageFile, type StagedFile } from '../../content/atomic-write.js';
import { parsePageFile } from '../../domain/frontmatter.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { Queryable } from '../../store/repositories/queryable.js';
import type { PageRow } from '../../store/schema.js';
import { type ActivityEntry, record } from '../activity.js';
import type { Current, Located, PageContext } from './context.js';
import { indexForSearch } from './page-object.js';

/** Most saves applied as one batch; the rest wait for the next (bounds one batch's memory and time). */
const MAX_BATCH = 64;

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
        await runBatch(workspaceId, queue, jobs);
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
    const entries = await planAll(workspaceId, queue, jobs);
    await writeFiles(entries);
    await writeRows(entries.filter((e) => e.error === undefined));
    for (const entry of entries) {
      if (entry.error === undefined) entry.resolve(entry.plan.outcome);
      else entry.reject(entry.error);
    }
  }

  /** Checks each save in arrival order; answers the ones that write, settling the others now. */
  async function planAll(workspaceId: string, queue: Queue, jobs: Pending[]): Promise<Entry[]> {
    const latest = new Map<string, { current: Current; entry: Entry }>();
    const entries: Entry[] = [];
    const deferred: Pending[] = [];
    const state = { pagesCreated: 0 };
    for (const pending of jobs) {
      const { loc } = pending.job;
      // A page a deferred save waits on keeps its later saves in order behind it.
      if (deferred.some((d) => d.job.loc.path === loc.path)) {
        deferred.push(pending);
        continue;
      }
      try {
        const before = latest.get(loc.path);
        const plan = await pending.job.plan(before?.current ?? (await ctx.currentLocked(loc)), state);
        if (!plan.write) {
          pending.resolve(plan.outcome);
          continue;
        }
        const entry: Entry = { ...pending, plan, write: plan.write, prior: before?.entry };
        entries.push(entry);
        if (!plan.write.exists) state.pagesCreated++;
        const file = { text: plan.write.text, ...parsePageFile(plan.write.text) };
        latest.set(loc.path, { current: { file, row: plan.write.row }, entry });
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

  /** Stages every file in parallel, renames them in order, then fsyncs each directory once. */
  async function writeFiles(entries: Entry[]): Promise<void> {
    await Promise.all(
      entries.map(async (entry) => {
        try {
          entry.abs = await entry.job.loc.files.resolve(entry.job.loc.path);
          entry.staged = await stageFile(entry.abs, entry.write.text);
        } catch (error) {
          entry.error = ctx.fsFailure(entry.job.loc.path, error);
        }
      }),
    );
    const byDir = new Map<string, Entry[]>();
    for (const entry of entries) {
      // A save planned on an earlier one that failed must not land on the page as it still is.
      if (entry.error === undefined && entry.prior?.error !== undefined) entry.error = entry.prior.error;
      if (entry.error !== undefined) {
        await entry.staged?.discard();
        continue;
      }
      try {
        await entry.staged!.commit();
        const dir = path.dirname(entry.abs!);
        byDir.set(dir, [...(byDir.get(dir) ?? []), entry]);
      } catch (error) {
        entry.error = ctx.fsFailure(entry.job.loc.path, error);
      }
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

  /** One transaction for every written page; if it fails, each page on its own, so one bad row fails alone. */
  async function writeRows(entries: Entry[]): Promise<void> {
    if (entries.length === 0) return;
    try {
      await db.transaction().execute(async (trx) => {
        for (const entry of entries) await writeRow(trx, entry);
      });
      return;
    } catch (error) {
      if (entries.length === 1) {
        entries[0]!.error = error;
        return;
      }
    }
    for (const entry of entries) {
      try {
        await db.transaction().execute((trx) => writeRow(trx, entry));
      } catch (error) {
        entry.error = error;
      }
    }
  }

  /** The page row, its activity entry and its search document. */
  async function writeRow(trx: Queryable, { job, write }: Entry): Promise<void> {
    if (write.exists) {
      await pagesTable.replaceRow(trx, write.row);
    } else {
      // A row left at this path by a file removed behind Folio's back would block the insert.
      await pagesTable.deleteAtPath(trx, job.loc.workspace.id, write.row.path);
      await pagesTable.insertRow(trx, write.row);
    }
    await record(trx, write.activity);
    await indexForSearch(trx, deps.searchIndex, write.row, write.body);
  }

  return {
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
