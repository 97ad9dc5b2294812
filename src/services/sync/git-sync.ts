import type { z } from 'zod';
import type { Config } from '../../config.js';
import type { Actor } from '../../domain/actor.js';
import type { EventBus } from '../../events/bus.js';
import { bothLocks, KeyedLock, lockNamed, type WorkspaceLock } from '../../git/lock.js';
import type { WorkspaceRepo } from '../../git/repository.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/database.js';
import type { AccessService } from '../access.js';
import type { Clock } from '../../lib/clock.js';
import type { CoAuthorNotes } from '../../coedit/co-authors.js';
import { createGitCommits } from './commits.js';
import { createGitRemote, type gitRemoteInput } from './remote.js';
import { createRepoOpener, FOLIO_IDENTITY, type GitWorkspace } from './repo-opener.js';
import type { PagesService } from '../pages/pages.js';
import type { Reconciler } from '../pages/reconcile.js';
import { remoteRulesOf } from '../workspaces/remote-rules.js';
import { createSyncConflicts } from './conflicts.js';
import { createConflictResolution } from './resolve.js';
import { createSyncState } from './state.js';
import { createSyncEngine } from './engine.js';
import { createSharedWebhook } from './shared-webhook.js';
import type { WorkspacesService } from '../workspaces/workspaces.js';
import type { Metrics } from '../../metrics/metrics.js';

export interface GitSyncDeps {
  config: Pick<
    Config,
    | 'dataDir'
    | 'gitSyncIntervalSeconds'
    | 'gitFileRemoteRoot'
    | 'gitAllowPrivateHosts'
    | 'gitNetworkTimeoutSeconds'
    | 'gitWebhookSecret'
  >;
  store: Store;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  access: AccessService;
  /** The lock page writes hold, so a merge never sees a half-written tree. */
  lock: WorkspaceLock;
  reconciler: Reconciler;
  pages: PagesService;
  workspaces: WorkspacesService;
  /** Quiet time before web edits are committed (tests shorten it). */
  commitDebounceMs?: number;
  /** Who else typed a page a co-editing room saved (`Co-authored-by` trailers). */
  coAuthors?: CoAuthorNotes;
  metrics?: Pick<Metrics, 'sync'>;
}

/**
 * Git sync as one service: auto-commit of web changes,
 * background pushes, pulls on demand, by webhook and by poll, conflicts, and
 * the remote's credentials and deploy key. The parts live beside it in services/sync/
 * (commits, remote, engine, conflicts, state); this file only wires them together.
 */
export function createGitSync(deps: GitSyncDeps) {
  const { config, store, events, clock, logger, access } = deps;
  const dataDir = config.dataDir;
  // Git's own state (its index and HEAD) takes turns under the repository lock. Committing
  // web edits holds only that one: it reads files that page writes replace atomically, so
  // page writes go on while git runs. Everything that changes the working tree as well
  // (merges, conflict resolutions, a new remote) holds the page lock and then this one.
  const repoLock = lockNamed(deps.lock, 'git:');
  const lock = bothLocks(deps.lock, repoLock);
  const repos = createRepoOpener(dataDir, {
    networkTimeoutMs: config.gitNetworkTimeoutSeconds * 1000,
    logger,
  });
  let leftovers: Promise<void> = Promise.resolve();
  // Fetches and pushes of one workspace take turns without holding up its page writes.
  const network = new KeyedLock();
  const state = createSyncState({ store, events, clock });
  const conflicts = createSyncConflicts({ store, clock, events, access, state, dataDir });
  // The engine pushes what was committed; it hears of commits as a bus event (`commits-made`).
  const commits = createGitCommits({
    ...{ store, events, lock: repoLock, pageLock: deps.lock, logger, repos, state },
    ...(deps.commitDebounceMs !== undefined ? { debounceMs: deps.commitDebounceMs } : {}),
    ...(deps.coAuthors ? { coAuthors: deps.coAuthors } : {}),
    afterCommit: (workspaceId) => events.emit('commits-made', { workspace_id: workspaceId }),
  });
  const remote = createGitRemote({
    ...{ store, clock, access, lock, network, repos, dataDir },
    rules: remoteRulesOf(config),
    // Conflicts and errors were about the old remote.
    onRemoteChanged: async (workspaceId) => {
      await conflicts.supersedeAll(workspaceId);
      await state.clearError(workspaceId);
    },
  });
  const sync = createSyncEngine({
    ...{
      store,
      events,
      clock,
      logger,
      lock,
      repoLock,
      network,
      access,
      repos,
      state,
      commits,
      remote,
      conflicts,
    },
    reconciler: deps.reconciler,
    intervalSeconds: config.gitSyncIntervalSeconds,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  });
  // With the Redis bus another instance on the same DATA_DIR may hear it too: a push finds
  // nothing to do once the remote has the commits.
  events.on('commits-made', (event) => sync.pushSoon(event.payload.workspace_id));
  const sharedWebhook = createSharedWebhook({
    store,
    logger,
    secret: config.gitWebhookSecret,
    requestSync: sync.requestWebhookSync,
  });
  const resolution = createConflictResolution({
    ...{ store, clock, logger, access, lock, conflicts, dataDir },
    pages: deps.pages,
    engine: sync,
  });

  return {
    /** `POST /workspaces/:id/sync`. */
    sync: sync.sync,
    /** `POST /api/git/webhook/:workspace_id`. */
    receiveWebhook: sync.receiveWebhook,
    /** The older layouts' webhook, validated with GIT_WEBHOOK_SECRET (`shared-webhook.ts`). */
    receiveSharedWebhook: sharedWebhook.receive,
    listConflicts: conflicts.list,
    getConflict: conflicts.get,
    downloadConflict: conflicts.download,
    resolveConflict: resolution.resolve,
    dismissConflict: conflicts.dismiss,
    setCredentials: remote.setCredentials,
    clearCredentials: remote.clearCredentials,
    deployKey: remote.deployKey,

    /** Admins: changes the remote and/or branch, then pulls from the new remote in the background. */
    async setRemote(actor: Actor, idOrSlug: string, input: z.infer<typeof gitRemoteInput>) {
      const id = await remote.setRemote(actor, idOrSlug, input);
      if (input.git_remote) sync.runSync(id, { trigger: 'poll' }).catch(() => undefined);
      return deps.workspaces.get(actor, id);
    },

    /**
     * Admins: forgets the trusted SSH host key of the remote and clears the
     * error it caused, then syncs in the background, trusting the key shown now.
     */
    async resetHostKey(actor: Actor, idOrSlug: string) {
      const id = await remote.resetHostKey(actor, idOrSlug);
      await state.clearError(id);
      sync.runSync(id, { trigger: 'poll' }).catch(() => undefined);
      return deps.workspaces.get(actor, id);
    },

    /**
     * Commits everything in the workspace's tree now: the web changes waiting in their
     * batches (with their authors), then anything else (edits found on disk, as Folio).
     * The caller holds the workspace's page lock; answers the repository, e.g. for a version tag.
     */
    commitEverythingLocked(ws: GitWorkspace): Promise<WorkspaceRepo> {
      return repoLock.run(ws.id, async () => {
        await commits.flushLocked(ws.id);
        const repo = await repos.open(ws);
        await repo.commitAll({
          authorName: FOLIO_IDENTITY.name,
          authorEmail: FOLIO_IDENTITY.email,
          message: 'docs: commit changes found on disk',
        });
        return repo;
      });
    },

    /**
     * What change requests need to work on a workspace's repository beside the sync engine:
     * its locks (the same ones, so a request's merge and a sync take turns), the opener,
     * the waiting web commits, the remote's credentials, and a push of the live branch.
     */
    branches: {
      lock,
      repoLock,
      network,
      repos,
      flushLocked: commits.flushLocked,
      authFor: remote.authFor,
      pushSoon: sync.pushSoon,
    },

    /** Workspaces whose last commit failed, and why (`/api/ready` reports them). */
    commitFailures: commits.failures,

    /**
     * Records what a crash left uncommitted in each workspace; run before the server takes
     * requests, so the start-up sweep commits only that (start() records it otherwise).
     */
    snapshotLeftovers: commits.snapshotLeftovers,
    /** Runs work that writes many files and commits them as one commit by its author (imports). */
    commitAsOne: commits.commitAsOne,

    /** Commits what a crash left behind, pushes what is unpushed, starts polling. */
    start(): void {
      sync.start();
      // Awaited by stop(), so a shutdown never races the database closing under it.
      leftovers = commits.commitLeftovers().catch((error: unknown) => {
        logger.warn({ err: error }, 'committing changes left on disk failed');
      });
    },

    /**
     * Stops polling, retries and background syncs (waiting for those running),
     * then commits waiting web changes locally; the next start pushes them.
     */
    async stop(): Promise<void> {
      await leftovers;
      await sync.stop();
      await commits.stop();
    },
  };
}

export type GitSyncService = ReturnType<typeof createGitSync>;
