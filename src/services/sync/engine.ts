import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import { AppError, notFound, unauthorized } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import { GitError, type GitAuth } from '../../git/git.js';
import type { WorkspaceLock } from '../../git/lock.js';
import type { ConflictFile, MergeResult, WorkspaceRepo } from '../../git/repository.js';
import { parsePushPayload, verifyWebhookSignature, type WebhookHeaders } from '../../git/webhook.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/database.js';
import * as workspacesTable from '../../store/repositories/workspaces.js';
import type { WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import { record } from '../activity.js';
import { announcePulled } from './announce-pulled.js';
import type { GitCommits } from './commits.js';
import type { GitRemote } from './remote.js';
import { FOLIO_FOLDER, FOLIO_IDENTITY, purgeFolioFolder, type RepoOpener } from './repo-opener.js';
import type { Clock } from '../../lib/clock.js';
import type { Reconciler, ReconcileSummary } from '../pages/reconcile.js';
import type { ConflictRecord, SyncConflicts } from './conflicts.js';
import { errorText, REMOTE_FAILURE, type SyncState } from './state.js';
import type { Metrics } from '../../metrics/metrics.js';

/** The API's sync result; `conflicts` lists what stopped the merge. */
export interface SyncResult {
  status: 'completed' | 'conflict';
  changes: { added: number; updated: number; deleted: number };
  conflicts?: ConflictRecord[];
}

export interface SyncOptions {
  trigger: 'manual' | 'webhook' | 'poll' | 'push' | 'resolve';
  /** The user behind a manual sync or a resolution, for the activity feed. */
  actorId?: string | null;
  /** Author of the commits this sync makes (the merge, uncommitted files); Folio otherwise. */
  identity?: { name: string; email: string };
  /** Message for committing files changed outside Folio's own writes. */
  message?: string;
}

export interface SyncEngineDeps {
  store: Store;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  /** The page lock and then the repository lock, for merges: never across network I/O. */
  lock: WorkspaceLock;
  /** The repository lock alone, for work on git's state that leaves the working tree be. */
  repoLock: WorkspaceLock;
  /**
   * One fetch or push per workspace at a time (two would race on origin's refs), held
   * across network I/O; taken before the workspace lock, never while holding it.
   */
  network: WorkspaceLock;
  access: AccessService;
  reconciler: Reconciler;
  repos: RepoOpener;
  state: SyncState;
  commits: GitCommits;
  remote: GitRemote;
  conflicts: SyncConflicts;
  /** GIT_SYNC_INTERVAL: seconds between polls of each remote; 0 = webhooks only. */
  intervalSeconds: number;
  /** First and longest wait before a failed push is tried again. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Sync runs and push failures are counted here. */
  metrics?: Pick<Metrics, 'sync'>;
}

const FOLIO_AUTHOR = { authorName: FOLIO_IDENTITY.name, authorEmail: FOLIO_IDENTITY.email };

/** Git failures are the remote's (or the host's) problem, said as 503 with a redacted reason. */
function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof GitError) {
    return new AppError('SERVICE_UNAVAILABLE', REMOTE_FAILURE[error.kind], {
      details: { reason: error.kind, detail: errorText(error) },
      cause: error,
    });
  }
  return new AppError('INTERNAL_ERROR', 'Sync failed', { cause: error });
}

/** Whether a repository path is inside Folio's own `.folio/` folder. */
const inFolioFolder = (p: string): boolean => p === FOLIO_FOLDER || p.startsWith(`${FOLIO_FOLDER}/`);

/** `.gitignore` is Folio's and the remote's: an add/add conflict keeps both sides' lines. */
function unionLines(ours: string | null, theirs: string | null): string {
  const lines = [...(ours ?? '').split('\n'), ...(theirs ?? '').split('\n')].filter((l) => l !== '');
  return `${[...new Set(lines)].join('\n')}\n`;
}

/**
 * The git sync engine. A sync fetches, then under the workspace lock commits
 * pending web edits, merges the remote (aborting on conflict so nothing is
 * overwritten) and reconciles the changed files into the page index, then
 * pushes. Network I/O never holds the workspace lock, so a slow remote never
 * holds up page writes.
 * Web commits are pushed in the background with exponential backoff; webhooks
 * and the GIT_SYNC_INTERVAL poll start background syncs.
 */
export function createSyncEngine(deps: SyncEngineDeps) {
  const db = deps.store.db;
  const { state, conflicts } = deps;
  const retryBase = deps.retryBaseMs ?? 1000;
  const retryMax = deps.retryMaxMs ?? 5 * 60_000;
  const running = new Set<Promise<unknown>>();
  const syncs = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const pushes = new Map<string, { timer: NodeJS.Timeout | null; attempt: number }>();
  let poll: NodeJS.Timeout | null = null;
  // Until `start`, nothing runs in the background: CLI commands that build the services
  // (`folio mcp` in-process, `rebuild`) commit locally and leave pushing to the server.
  let stopped = true;

  const track = <T>(work: Promise<T>): Promise<T> => {
    running.add(work);
    void work.finally(() => running.delete(work)).catch(() => undefined);
    return work;
  };

  async function load(workspaceId: string): Promise<WorkspaceRow | undefined> {
    return workspacesTable.findLiveById(db, workspaceId);
  }

  /** Pushes when the local branch has commits the remote lacks; true when it pushed. */
  async function pushIfAhead(
    ws: WorkspaceRow,
    repo: WorkspaceRepo,
    auth: GitAuth | undefined,
  ): Promise<boolean> {
    const head = await repo.head();
    if (head === null) return false;
    if ((await deps.repos.resolve(ws, `refs/remotes/origin/${ws.git_branch}`)) === head) return false;
    try {
      await repo.push(ws.git_branch, auth);
    } catch (error) {
      deps.metrics?.sync.pushFailures.inc();
      throw error;
    }
    return true;
  }

  /**
   * Under the workspace lock, after a fetch: commits what waits (web edits made
   * meanwhile included, since merging needs a clean tree), merges what was
   * fetched, reconciles the changed files and commits page ids given to them.
   */
  async function mergeLocked(
    ws: WorkspaceRow,
    repo: WorkspaceRepo,
    fetched: string | null,
    options: SyncOptions,
  ): Promise<{ merge: MergeResult | null; summary: ReconcileSummary | null; open?: ConflictRecord[] }> {
    const who = options.identity ?? FOLIO_IDENTITY;
    const identity = {
      authorName: who.name,
      authorEmail: who.email,
      committerName: FOLIO_IDENTITY.name,
      committerEmail: FOLIO_IDENTITY.email,
    };
    await deps.commits.flushLocked(ws.id);
    await repo.commitAll({
      ...identity,
      message: options.message ?? 'docs: commit changes made outside Folio',
    });

    let merge: MergeResult | null = null;
    const settled = new Set<string>();
    if (fetched !== null) {
      const resolve = async (files: ConflictFile[]) => {
        const texts = new Map(await conflicts.resolvedTexts(ws.id, files));
        for (const f of files) {
          if (f.path === '.gitignore') texts.set(f.path, unionLines(f.ours, f.theirs));
          // Folio's folder never comes from git: whatever the remote changed there is deleted.
          if (inFolioFolder(f.path)) texts.set(f.path, null);
        }
        for (const path of texts.keys()) settled.add(path);
        return texts;
      };
      merge = await repo.mergeRemote(ws.git_branch, identity, { resolve });
    }
    if (merge?.status === 'conflict') {
      const open = await conflicts.recordLocked(
        ws,
        merge.conflicts.filter((c) => !settled.has(c.path)),
      );
      await state.setStatus(ws.id, 'conflict');
      return { merge, summary: null, open };
    }
    const pulled = merge?.changed ?? [];
    if (pulled.some((c) => inFolioFolder(c.path))) await purgeFolioFolder(repo);
    const summary =
      pulled.length > 0 || options.trigger === 'manual'
        ? await deps.reconciler.reconcileLocked(ws, { recordActivity: true })
        : null;
    // Files pulled without a page id just got one written: that change goes back to the remote too.
    if (summary && summary.ids_written > 0) {
      await repo.commitAll({ ...identity, ...FOLIO_AUTHOR, message: 'docs: assign page ids' });
    }
    return { merge, summary };
  }

  /**
   * The sync itself, run under the workspace's network lock; the caller
   * handles status on failure. Only the merge holds the workspace lock: the
   * fetch and the push talk to the remote while page writes go on.
   */
  async function pullAndPush(
    ws: WorkspaceRow,
    repo: WorkspaceRepo,
    options: SyncOptions,
  ): Promise<SyncResult> {
    const auth = ws.git_remote ? await deps.remote.authFor(ws) : undefined;
    const fetched = ws.git_remote ? await repo.fetch(ws.git_branch, auth) : null;
    const { merge, summary, open } = await deps.lock.run(ws.id, () =>
      mergeLocked(ws, repo, fetched, options),
    );
    if (merge?.status === 'conflict') {
      return { status: 'conflict', changes: { added: 0, updated: 0, deleted: 0 }, conflicts: open ?? [] };
    }
    if (ws.git_remote) await pushIfAhead(ws, repo, auth);

    const changes = {
      added: summary?.added ?? 0,
      updated: (summary?.updated ?? 0) + (summary?.moved ?? 0),
      deleted: summary?.removed ?? 0,
    };
    await state.recordSuccess(ws.id);
    await conflicts.settleStatus(ws.id);
    if ((await state.status(ws.id)) !== 'conflict') await state.setStatus(ws.id, 'idle');
    if (options.trigger === 'manual' || changes.added + changes.updated + changes.deleted > 0) {
      await record(db, {
        workspaceId: ws.id,
        action: 'sync_completed',
        actorId: options.actorId ?? null,
        at: deps.clock.now().toISOString(),
        details: { ...changes, trigger: options.trigger, merge: merge?.status ?? 'no-remote' },
      });
    }
    // Last, so a listener that reacts to the event finds the feed and the status already written.
    announcePulled(deps.events, ws.id, merge?.changed ?? [], summary?.changed ?? []);
    deps.events.emit('sync-completed', { workspace_id: ws.id, trigger: options.trigger, changes });
    return { status: 'completed', changes };
  }

  /** Records a failed sync or push on the workspace: `error`, with why in `last_error`. */
  async function fail(workspaceId: string, error: unknown): Promise<void> {
    await state.recordError(workspaceId, error);
    await state.setStatus(workspaceId, 'error');
  }

  /** Runs a sync (one per workspace at a time); a failure sets `error` and `last_error` and is rethrown as AppError. */
  function runSync(workspaceId: string, options: SyncOptions): Promise<SyncResult> {
    return measured(options.trigger, runSyncUnmeasured(workspaceId, options));
  }

  /** Counts a run by trigger and result (completed, conflict, error) and times it. */
  async function measured(trigger: string, run: Promise<SyncResult>): Promise<SyncResult> {
    const started = performance.now();
    let result = 'error';
    try {
      const outcome = await run;
      result = outcome.status;
      return outcome;
    } finally {
      deps.metrics?.sync.runs.inc({ trigger, result });
      deps.metrics?.sync.duration.observe({ result }, (performance.now() - started) / 1000);
    }
  }

  function runSyncUnmeasured(workspaceId: string, options: SyncOptions): Promise<SyncResult> {
    return track(
      deps.network.run(workspaceId, async () => {
        const { ws, repo } = await deps.repoLock.run(workspaceId, async () => {
          const ws = await load(workspaceId);
          if (!ws) throw notFound('Workspace');
          await state.setStatus(ws.id, 'syncing');
          try {
            return { ws, repo: await deps.repos.open(ws) };
          } catch (error) {
            await fail(ws.id, error);
            throw toAppError(error);
          }
        });
        try {
          return await pullAndPush(ws, repo, options);
        } catch (error) {
          await fail(ws.id, error);
          throw toAppError(error);
        }
      }),
    );
  }

  /** A background sync (webhook, poll); one at a time per workspace, a request meanwhile runs once more after it. */
  function requestSync(workspaceId: string, trigger: SyncOptions['trigger']): void {
    if (stopped) return;
    if (syncs.has(workspaceId)) {
      again.add(workspaceId);
      return;
    }
    const run = (async () => {
      do {
        again.delete(workspaceId);
        try {
          await runSync(workspaceId, { trigger });
        } catch (error) {
          deps.logger.warn({ err: error, workspace_id: workspaceId, trigger }, 'background sync failed');
        }
      } while (again.has(workspaceId) && !stopped);
    })().finally(() => syncs.delete(workspaceId));
    syncs.set(workspaceId, track(run));
  }

  /**
   * Pushes local commits (under the network lock; the repository lock only
   * while deciding what to push); a rejected push (the remote moved on)
   * becomes a full sync.
   */
  async function pushNow(workspaceId: string): Promise<void> {
    // Only git's state is read and committed here: page writes go on meanwhile.
    const ready = await deps.repoLock.run(workspaceId, async () => {
      const ws = await load(workspaceId);
      if (!ws?.git_remote) return null;
      // While conflicts are open the branches have diverged: pushing waits for the resolution.
      if (await conflicts.hasOpen(ws.id)) return null;
      const repo = await deps.repos.open(ws);
      await deps.commits.flushLocked(ws.id);
      const head = await repo.head();
      if (head === null || (await deps.repos.resolve(ws, `refs/remotes/origin/${ws.git_branch}`)) === head)
        return null;
      await state.setStatus(ws.id, 'pushing');
      return { ws, repo };
    });
    if (!ready) return;
    const { ws, repo } = ready;
    try {
      try {
        await repo.push(ws.git_branch, await deps.remote.authFor(ws));
      } catch (error) {
        if (!(error instanceof GitError && error.kind === 'rejected')) throw error;
        await pullAndPush(ws, repo, { trigger: 'push' });
        return;
      }
      await state.recordSuccess(ws.id);
      await state.setStatus(ws.id, 'idle');
    } catch (error) {
      await fail(ws.id, error);
      throw error;
    }
  }

  /** Schedules a push of the workspace's commits; failures retry after 1 s, 2 s, 4 s … up to 5 min. */
  function pushSoon(workspaceId: string, delayMs = 0): void {
    if (stopped) return;
    const entry = pushes.get(workspaceId) ?? { timer: null, attempt: 0 };
    pushes.set(workspaceId, entry);
    if (entry.timer) return;
    entry.timer = setTimeout(() => {
      entry.timer = null;
      void track(
        deps.network
          .run(workspaceId, () => pushNow(workspaceId))
          .then(
            () => {
              if (!entry.timer) pushes.delete(workspaceId);
            },
            (error: unknown) => {
              entry.attempt += 1;
              deps.logger.warn(
                { err: error, workspace_id: workspaceId, attempt: entry.attempt },
                'push failed',
              );
              pushSoon(workspaceId, Math.min(retryBase * 2 ** (entry.attempt - 1), retryMax));
            },
          ),
      );
    }, delayMs);
    entry.timer.unref();
  }

  async function remoteWorkspaces(): Promise<string[]> {
    return workspacesTable.listLiveIdsWithRemote(db);
  }

  return {
    runSync,
    pushSoon,
    /** Starts a background sync (a shared-secret webhook names its workspaces itself). */
    requestWebhookSync: (workspaceId: string) => requestSync(workspaceId, 'webhook'),

    /** `POST /workspaces/:id/sync` (Admin): a sync now, answered with its result. */
    async sync(actor: Actor, idOrSlug: string): Promise<SyncResult> {
      const { workspace } = await deps.access.require(actor, idOrSlug, CAN.administer);
      return runSync(workspace.id, {
        trigger: 'manual',
        actorId: actor.via === 'system' ? null : actor.userId,
      });
    },

    /**
     * The inbound git webhook: 404 for an unknown workspace, 401 without a
     * valid signature of the raw body; a push to the configured branch starts
     * a background sync (`accepted`), anything else is `ignored`.
     */
    async receiveWebhook(workspaceId: string, headers: WebhookHeaders, rawBody: Buffer) {
      const ws = workspaceId.length <= 100 ? await load(workspaceId) : undefined;
      if (!ws) throw notFound('Workspace');
      if (!verifyWebhookSignature(headers, rawBody, ws.webhook_secret)) {
        throw unauthorized('The webhook signature does not match this workspace');
      }
      const push = parsePushPayload(headers, rawBody);
      let reason: string | null = null;
      if (!push.isPush) reason = 'not a push event';
      else if (push.branch !== ws.git_branch) reason = `push to another branch than ${ws.git_branch}`;
      else if (push.deleted) reason = 'the branch was deleted';
      else if (!ws.git_remote) reason = 'the workspace has no git remote';
      if (reason !== null) {
        deps.logger.debug({ workspace_id: ws.id, reason }, 'webhook delivery ignored');
        return { status: 'ignored' as const };
      }
      requestSync(ws.id, 'webhook');
      return { status: 'accepted' as const };
    },

    /** Starts polling (GIT_SYNC_INTERVAL) and pushes what earlier runs left unpushed. */
    start(): void {
      stopped = false;
      void remoteWorkspaces()
        .then((ids) => ids.forEach((id) => pushSoon(id)))
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'scheduling pushes failed'));
      if (deps.intervalSeconds > 0 && !poll) {
        poll = setInterval(() => {
          void remoteWorkspaces()
            .then((ids) => ids.forEach((id) => requestSync(id, 'poll')))
            .catch((error: unknown) => deps.logger.warn({ err: error }, 'polling git remotes failed'));
        }, deps.intervalSeconds * 1000);
        poll.unref();
      }
    },

    /** Stops polling and retries, and waits for syncs and pushes in progress. */
    async stop(): Promise<void> {
      stopped = true;
      if (poll) clearInterval(poll);
      poll = null;
      for (const entry of pushes.values()) if (entry.timer) clearTimeout(entry.timer);
      pushes.clear();
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

export type SyncEngine = ReturnType<typeof createSyncEngine>;
