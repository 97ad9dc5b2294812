import path from 'node:path';
import type { EventBus, Unsubscribe } from '../../events/bus.js';
import type { WorkspaceLock } from '../../git/lock.js';
import type { CommitOptions, TreeSnapshot, WorkspaceRepo } from '../../git/repository.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/database.js';
import type { WorkspaceRow } from '../../store/schema.js';
import { type CommitAuthor, findCommitAuthor, findCommitAuthors } from '../../store/repositories/users.js';
import * as workspacesTable from '../../store/repositories/workspaces.js';
import type { CoAuthorNotes } from '../../coedit/co-authors.js';
import { FOLIO_IDENTITY, type GitWorkspace, type RepoOpener } from './repo-opener.js';
import type { SyncState } from './state.js';

export interface GitCommitsDeps {
  store: Store;
  events: EventBus;
  /** The workspace's repository lock (not the page lock: page writes go on while git runs). */
  lock: WorkspaceLock;
  /** The page lock, held while the start-up sweep records a tree, so it finds no page write half done. */
  pageLock: WorkspaceLock;
  logger: Logger;
  repos: RepoOpener;
  /** Where a failing commit is reported (`sync_status: error`, `last_error`). */
  state: SyncState;
  /** Quiet time after the last change of a batch before it is committed. */
  debounceMs?: number;
  /** A batch is committed at the latest this long after its first change, however busy the author. */
  maxWaitMs?: number;
  /** Told after a commit landed, outside the lock (the sync engine pushes it). */
  afterCommit?: (workspaceId: string) => void;
  /** Who else typed the pages a co-editing room saved: a `Co-authored-by` trailer each. */
  coAuthors?: CoAuthorNotes;
}

type Op =
  | { kind: 'create' | 'update' | 'delete' | 'upload' | 'ids'; path: string }
  | { kind: 'move'; path: string; from: string };

const KIND_OF = { 'page-created': 'create', 'page-updated': 'update' } as const;

/** Changes of one author in one workspace waiting to be committed together. */
interface Batch {
  workspaceId: string;
  actorId: string | null;
  /** How the commit names its author, as the page events told it (looked up when none did). */
  author: CommitAuthor | undefined;
  /** Each written page's title after its last write of the batch, as its events told it. */
  titles: Map<string, string>;
  /** Page ids Folio wrote into files it found: a batch of their own, committed as Folio. */
  ids: boolean;
  ops: Op[];
  paths: Set<string>;
  firstAt: number;
  timer: NodeJS.Timeout | null;
}

/** One line per change; repeated saves of one page say so once. */
function uniqueOps(ops: Op[]): Op[] {
  const seen = new Set<string>();
  return ops.filter((op) => {
    // Page ids written into many files are one line.
    const page = op.kind === 'update' || op.kind === 'create';
    const key = op.kind === 'ids' ? 'ids' : page ? `page\0${op.path}` : `${op.kind}\0${op.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Commits web changes to the workspace repository (events flow one way: it
 * listens to page and upload events; nothing calls it from the pages service).
 * Changes are batched per workspace and author for a short quiet time, then
 * committed under the workspace's repository lock with the user as author, Folio as
 * committer, and a message such as `docs: update Getting started`. The author's name and
 * email and the pages' titles come with the events, as the writer had them.
 */
export function createGitCommits(deps: GitCommitsDeps) {
  const db = deps.store.db;
  const debounceMs = deps.debounceMs ?? 1000;
  const maxWaitMs = deps.maxWaitMs ?? 10_000;
  const pending = new Map<string, Batch>();
  const running = new Set<Promise<unknown>>();
  const offs: Unsubscribe[] = [];
  /** Workspaces whose last commit failed, with why: shown by readiness until a commit goes through. */
  const failing = new Map<string, { error: string; at: string }>();
  /**
   * What the start-up sweep found uncommitted, by workspace (null: no repository yet, so
   * everything is), recorded before the server takes requests; null until recorded.
   */
  let leftovers: Map<string, { ws: WorkspaceRow; snapshot: TreeSnapshot | null }> | null = null;
  /** The sweep's commit of each workspace it has to commit: web commits of it wait for it. */
  const sweeping = new Map<string, Promise<unknown>>();
  /** Changes a caller commits itself as one commit (an import), left out of the batches. */
  const claims = new Set<{ workspaceId: string; actorId: string | null; owns: (path: string) => boolean }>();

  /** A commit failed: the files are safe on disk, but the workspace says so until one succeeds. */
  async function commitFailed(workspaceId: string, error: unknown): Promise<void> {
    deps.logger.warn({ err: error, workspace_id: workspaceId }, 'committing web changes failed');
    try {
      const text = await deps.state.recordError(workspaceId, error, 'Committing changes failed');
      failing.set(workspaceId, { error: text, at: new Date().toISOString() });
      await deps.state.setStatus(workspaceId, 'error');
    } catch (stateError) {
      deps.logger.warn({ err: stateError, workspace_id: workspaceId }, 'recording a commit failure failed');
    }
  }

  /**
   * After a failure, the first commit that goes through also commits what the
   * failed ones left (as Folio) and clears the error; the push that follows
   * sets the status of a workspace with a remote.
   */
  async function commitRecovered(workspaceId: string, repo: WorkspaceRepo): Promise<boolean> {
    if (!failing.has(workspaceId)) return false;
    const sha = await repo.commitAll({
      authorName: FOLIO_IDENTITY.name,
      authorEmail: FOLIO_IDENTITY.email,
      message: 'docs: commit changes left uncommitted',
    });
    failing.delete(workspaceId);
    await deps.state.clearError(workspaceId);
    return sha !== null;
  }

  function track<T>(work: Promise<T>): Promise<T> {
    running.add(work);
    void work.finally(() => running.delete(work)).catch(() => undefined);
    return work;
  }

  function note(
    workspaceId: string,
    actorId: string | null,
    op: Op,
    told: { author?: CommitAuthor | undefined; title?: string | undefined } = {},
  ): void {
    for (const c of claims) {
      if (c.workspaceId === workspaceId && c.actorId === actorId && c.owns(op.path)) return;
    }
    const ids = op.kind === 'ids';
    const key = `${workspaceId}\0${ids ? '\0ids' : (actorId ?? '')}`;
    let batch = pending.get(key);
    if (!batch) {
      batch = {
        ...{ workspaceId, actorId, ids, ops: [], paths: new Set<string>() },
        ...{ author: undefined, titles: new Map<string, string>(), firstAt: Date.now(), timer: null },
      };
      pending.set(key, batch);
    }
    batch.ops.push(op);
    if (told.author) batch.author = told.author;
    if (told.title !== undefined) batch.titles.set(op.path, told.title);
    batch.paths.add(op.path);
    if (op.kind === 'move') batch.paths.add(op.from);
    if (batch.timer) clearTimeout(batch.timer);
    const wait = Math.max(0, Math.min(debounceMs, batch.firstAt + maxWaitMs - Date.now()));
    batch.timer = setTimeout(() => void flush(workspaceId), wait);
    batch.timer.unref();
  }

  // Only this instance's own changes: with several instances (Redis relaying events), the
  // one that wrote a file commits it, so a batch of edits is committed once, not once per
  // instance in batches cut at different moments. A change left uncommitted by an instance
  // that died is taken by the next start's sweep (commitLeftovers), or by the next sync.
  offs.push(
    deps.events.onLocal((event) => {
      switch (event.type) {
        case 'page-created':
        case 'page-updated': {
          const { workspace_id, actor, path, author, title } = event.payload;
          return note(workspace_id, actor, { kind: KIND_OF[event.type], path }, { author, title });
        }
        case 'page-deleted': {
          const { workspace_id, actor, path, author } = event.payload;
          return note(workspace_id, actor, { kind: 'delete', path }, { author });
        }
        case 'upload-created': {
          const { workspace_id, actor, path } = event.payload;
          return note(workspace_id, actor, { kind: 'upload', path });
        }
        case 'page-moved': {
          const { workspace_id, actor, old_path, new_path, author } = event.payload;
          return note(workspace_id, actor, { kind: 'move', path: new_path, from: old_path }, { author });
        }
        case 'ids-written': {
          const { workspace_id, paths } = event.payload;
          for (const path of paths) note(workspace_id, null, { kind: 'ids', path });
          return;
        }
      }
    }),
  );

  function describe(batch: Batch, op: Op): string {
    if (op.kind === 'create' || op.kind === 'update') {
      return `docs: ${op.kind} ${batch.titles.get(op.path) ?? op.path}`;
    }
    if (op.kind === 'move') return `docs: move ${op.from} to ${op.path}`;
    if (op.kind === 'upload') return `docs: upload ${path.posix.basename(op.path)}`;
    if (op.kind === 'ids') return 'docs: assign page ids';
    return `docs: delete ${op.path}`;
  }

  /** `Co-authored-by: Name <email>` for each other person who typed a page of the batch live. */
  async function coAuthorTrailers(batch: Batch): Promise<string[]> {
    const ids = (deps.coAuthors?.take(batch.workspaceId, batch.paths) ?? []).filter(
      (id) => id !== batch.actorId,
    );
    if (ids.length === 0) return [];
    const users = await findCommitAuthors(db, ids);
    return ids.flatMap((id) => {
      const user = users.find((u) => u.id === id);
      return user ? [`Co-authored-by: ${user.name.replace(/[<>\n]/g, '')} <${user.email}>`] : [];
    });
  }

  /** The user `actorId` as a commit names them; Folio's identity stands in for none. */
  async function authorOf(actorId: string | null): Promise<CommitAuthor | undefined> {
    return actorId ? await findCommitAuthor(db, actorId) : undefined;
  }

  async function commitOptions(batch: Batch): Promise<CommitOptions> {
    // A writer that did not tell who they are (a reorder, a finished move) is looked up.
    const user = batch.author ?? (await authorOf(batch.actorId));
    const lines = uniqueOps(batch.ops).map((op) => describe(batch, op));
    const [first = 'docs: update', ...rest] = lines;
    const summary = rest.length === 0 ? first : `${first} (+${rest.length} more)\n\n${lines.join('\n')}`;
    const trailers = await coAuthorTrailers(batch);
    const message = trailers.length === 0 ? summary : `${summary}\n\n${trailers.join('\n')}`;
    return {
      authorName: user?.name ?? FOLIO_IDENTITY.name,
      authorEmail: user?.email ?? FOLIO_IDENTITY.email,
      committerName: FOLIO_IDENTITY.name,
      committerEmail: FOLIO_IDENTITY.email,
      message,
    };
  }

  /**
   * Commits every waiting batch of the workspace. The caller holds its repository lock
   * (the sync engine does this before it merges). Returns whether a commit was made.
   */
  async function flushLocked(workspaceId: string): Promise<boolean> {
    const batches = [...pending.entries()].filter(([, b]) => b.workspaceId === workspaceId);
    if (batches.length === 0) return false;
    for (const [key, batch] of batches) {
      pending.delete(key);
      if (batch.timer) clearTimeout(batch.timer);
    }
    const ws = await workspacesTable.findLiveById(db, workspaceId);
    if (!ws) return false;
    // A page someone saved after Folio wrote its id goes in with their commit, id and all.
    const edited = new Set(batches.flatMap(([, b]) => (b.ids ? [] : [...b.paths])));
    let committed = false;
    try {
      const repo = await deps.repos.open(ws);
      for (const [, batch] of batches) {
        const paths = [...batch.paths].filter((p) => !batch.ids || !edited.has(p));
        const sha = await repo.commitPaths(paths, await commitOptions(batch));
        committed ||= sha !== null;
      }
      committed = (await commitRecovered(workspaceId, repo)) || committed;
    } catch (error) {
      // The files are safe on disk; the next commit that goes through (or sync, or start) takes them.
      await commitFailed(workspaceId, error);
    }
    return committed;
  }

  /** Commits the workspace's waiting batches under its repository lock, then tells `afterCommit`. */
  function flush(workspaceId: string): Promise<boolean> {
    // After the start-up sweep of the workspace, so what a crash left is a commit of its own.
    const swept = sweeping.get(workspaceId) ?? Promise.resolve();
    return track(
      swept
        .then(() => deps.lock.run(workspaceId, () => flushLocked(workspaceId)))
        .then((committed) => {
          if (committed) deps.afterCommit?.(workspaceId);
          return committed;
        })
        .catch((error: unknown) => {
          deps.logger.warn({ err: error, workspace_id: workspaceId }, 'committing web changes failed');
          return false;
        }),
    );
  }

  /**
   * Before the server takes requests: records, in every live workspace, what a crash
   * left between a file write and its commit. Under the page lock, so no page write is
   * half done; not the repository's, so a commit of another instance goes on meanwhile.
   */
  async function snapshotLeftovers(): Promise<void> {
    const found = new Map<string, { ws: WorkspaceRow; snapshot: TreeSnapshot | null }>();
    for (const ws of await workspacesTable.listLive(db)) {
      try {
        const snapshot = await deps.pageLock.run(ws.id, async () => {
          const repo = await deps.repos.existing(ws);
          return repo ? await repo.snapshot() : null;
        });
        if (snapshot === null || snapshot.paths.length > 0) found.set(ws.id, { ws, snapshot });
      } catch (error) {
        await commitFailed(ws.id, error);
      }
    }
    leftovers = found;
  }

  /** Commits one workspace's leftovers under its repository lock; never rejects. */
  async function sweep(ws: WorkspaceRow, recorded: TreeSnapshot | null): Promise<void> {
    const sha = await deps.lock.run(ws.id, async () => {
      try {
        const repo = await deps.repos.open(ws);
        // Without a repository at start everything is left over: recorded now it was made.
        const snapshot = recorded ?? (await repo.snapshot());
        return await repo.commitSnapshot(snapshot, {
          authorName: FOLIO_IDENTITY.name,
          authorEmail: FOLIO_IDENTITY.email,
          message: 'docs: commit changes left uncommitted',
        });
      } catch (error) {
        await commitFailed(ws.id, error);
        return null;
      }
    });
    if (sha) deps.afterCommit?.(ws.id);
  }

  return {
    flushLocked,
    flush,

    /**
     * Runs `work`, which writes files as `actorId` and lists each path it wrote in
     * `written`, and commits them as one commit authored by that user (Folio when null)
     * with the message `work` answers, under the repository lock. While it runs, that
     * user's changes in the workspace whose path `owns` accepts are left out of the usual
     * batches, so a long run is never cut into several commits. When `work` fails, what
     * it wrote is still committed (`failedMessage`) before the error goes on.
     */
    async commitAsOne(
      ws: GitWorkspace,
      actorId: string | null,
      owns: (path: string) => boolean,
      work: (written: string[]) => Promise<string>,
      failedMessage: string,
    ): Promise<string | null> {
      const claim = { workspaceId: ws.id, actorId, owns };
      const written: string[] = [];
      const commit = async (message: string) => {
        const user = await authorOf(actorId);
        const sha = await track(
          deps.lock.run(ws.id, async () => {
            const repo = await deps.repos.open(ws);
            return repo.commitPaths(written, {
              authorName: user?.name ?? FOLIO_IDENTITY.name,
              authorEmail: user?.email ?? FOLIO_IDENTITY.email,
              committerName: FOLIO_IDENTITY.name,
              committerEmail: FOLIO_IDENTITY.email,
              message,
            });
          }),
        );
        if (sha) deps.afterCommit?.(ws.id);
        return sha;
      };
      claims.add(claim);
      try {
        let message: string;
        try {
          message = await work(written);
        } catch (error) {
          await commit(failedMessage).catch((e: unknown) => commitFailed(ws.id, e));
          throw error;
        }
        return await commit(message);
      } finally {
        claims.delete(claim);
      }
    },

    /** Workspaces whose last commit failed, and why (for readiness). */
    failures: (): Array<{ workspace_id: string; error: string; since: string }> =>
      [...failing].map(([id, f]) => ({ workspace_id: id, error: f.error, since: f.at })),

    /** Whether changes of the workspace are waiting for their commit. */
    hasPending: (workspaceId: string): boolean =>
      [...pending.values()].some((b) => b.workspaceId === workspaceId),

    snapshotLeftovers,

    /**
     * At start: commits what `snapshotLeftovers` recorded (as Folio, since the author is
     * unknown), and only that: files saved since are their authors' commits. Records
     * first when that was not done. Resolves once every workspace is swept.
     */
    async commitLeftovers(): Promise<void> {
      if (leftovers === null) await snapshotLeftovers();
      const found = leftovers ?? new Map();
      leftovers = new Map();
      let previous: Promise<unknown> = Promise.resolve();
      for (const [id, { ws, snapshot }] of found) {
        const swept = previous.then(() => sweep(ws, snapshot));
        sweeping.set(id, swept);
        previous = swept;
      }
      await previous;
      sweeping.clear();
    },

    /** Stops listening and commits what is still waiting. */
    async stop(): Promise<void> {
      for (const off of offs.splice(0)) off();
      const workspaces = new Set([...pending.values()].map((b) => b.workspaceId));
      await Promise.all([...workspaces].map((id) => flush(id)));
      await Promise.all([...running]);
    },
  };
}

export type GitCommits = ReturnType<typeof createGitCommits>;
