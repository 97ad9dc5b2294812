import path from 'node:path';
import { access as fsAccess } from 'node:fs/promises';
import { workspaceDir, workspaceMetaDir } from '../../content/workspace-meta.js';
import type { Actor } from '../../domain/actor.js';
import type { Requirement, Role } from '../../domain/policy.js';
import { AppError, notFound } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { EventPayloads } from '../../events/types.js';
import {
  changeRequestBranch,
  restoreBranchWorktree,
  resolveCommit,
} from '../../git/change-request-branches.js';
import { lockNamed } from '../../git/lock.js';
import { WorkspaceRepo } from '../../git/repository.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/database.js';
import * as requestsTable from '../../store/repositories/change-requests.js';
import type { ChangeRequestRow, WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import { commitAuthorOf } from '../commit-author.js';
import type { Reconciler } from '../pages/reconcile.js';
import type { GitSyncService } from '../sync/git-sync.js';
import { FOLIO_IDENTITY } from '../sync/repo-opener.js';

export interface ChangeRequestDeps {
  store: Store;
  clock: Clock;
  events: EventBus;
  logger: Logger;
  access: AccessService;
  reconciler: Reconciler;
  /** The workspace repository's locks, opener and remote, shared with the sync engine. */
  git: GitSyncService['branches'];
  dataDir: string;
  frontmatterMode: 'strict' | 'lenient';
}

/** A request of a workspace the actor may act on, and where its branch is checked out. */
export interface LocatedRequest {
  workspace: WorkspaceRow;
  role: Role;
  request: ChangeRequestRow;
  branch: string;
  worktree: string;
}

type RequestEvent =
  'change-request-opened' | 'change-request-reviewed' | 'change-request-merged' | 'change-request-closed';

/** The helpers every change-request operation shares. */
export function createRequestContext(deps: ChangeRequestDeps) {
  const db = deps.store.db;
  // One turn per request for its edits, merge and close; never taken while holding a workspace lock.
  const requestLock = lockNamed(deps.git.repoLock, 'cr:');

  /** `DATA_DIR/meta/<workspace>/change-requests/<n>`: outside the live tree, never committed. */
  const worktreeOf = (workspaceId: string, number: number): string =>
    path.join(workspaceMetaDir(deps.dataDir, workspaceId), 'change-requests', String(number));

  async function require(
    actor: Actor,
    workspace: string,
    number: number,
    need: Requirement,
  ): Promise<LocatedRequest> {
    const { workspace: ws, role } = await deps.access.require(actor, workspace, need);
    const request = await requestsTable.findByNumber(db, ws.id, number);
    if (!request) throw notFound('Change request');
    return {
      workspace: ws,
      role,
      request,
      branch: changeRequestBranch(number),
      worktree: worktreeOf(ws.id, number),
    };
  }

  return {
    db,
    deps,
    requestLock,
    worktreeOf,
    liveRoot: (workspaceId: string) => workspaceDir(deps.dataDir, workspaceId),

    /** The request `number` of the workspace: NOT_FOUND without read access or when there is none. */
    require,

    /** As `require`, for a request that must still be open: CONFLICT once it is merged or closed. */
    async requireOpen(actor: Actor, workspace: string, number: number, need: Requirement) {
      const located = await require(actor, workspace, number, need);
      if (located.request.status !== 'open') {
        throw new AppError('CONFLICT', `Change request #${number} is ${located.request.status}`, {
          details: { reason: 'change_request_not_open', status: located.request.status },
        });
      }
      return located;
    },

    /** The request's worktree, checked out again from its branch when the folder went missing. */
    async worktreeRepo(located: LocatedRequest): Promise<WorkspaceRepo> {
      const present = await fsAccess(path.join(located.worktree, '.git')).then(() => true, () => false); // prettier-ignore
      if (!present) {
        await deps.git.repoLock.run(located.workspace.id, () =>
          restoreBranchWorktree(
            workspaceDir(deps.dataDir, located.workspace.id),
            located.worktree,
            located.branch,
          ),
        );
      }
      return new WorkspaceRepo(located.worktree);
    },

    /** The tip of the request's branch, or null when the branch is gone. */
    branchHead: (located: LocatedRequest) =>
      resolveCommit(workspaceDir(deps.dataDir, located.workspace.id), `refs/heads/${located.branch}`),

    /** The commit identity of `actor`: the user as author, Folio as committer. */
    async identityOf(actor: Actor) {
      const user = await commitAuthorOf(db, actor);
      return {
        authorName: user?.name ?? FOLIO_IDENTITY.name,
        authorEmail: user?.email ?? FOLIO_IDENTITY.email,
        committerName: FOLIO_IDENTITY.name,
        committerEmail: FOLIO_IDENTITY.email,
      };
    },

    /**
     * Pushes the request's branch when the workspace has a remote, so the team can review
     * it on its git host too. A failure is logged, never the edit's: the next edit or
     * sync pushes again.
     */
    async pushBranch(workspace: WorkspaceRow, branch: string): Promise<void> {
      if (!workspace.git_remote) return;
      try {
        const repo = await deps.git.repoLock.run(workspace.id, () => deps.git.repos.open(workspace));
        const auth = await deps.git.authFor(workspace);
        await deps.git.network.run(workspace.id, () => repo.push(branch, auth));
      } catch (error) {
        deps.logger.warn(
          { err: error, workspace_id: workspace.id, branch },
          'pushing a change request failed',
        );
      }
    },

    emit<K extends RequestEvent>(type: K, payload: EventPayloads[K]): void {
      deps.events.emit(type, payload);
    },
  };
}

export type RequestContext = ReturnType<typeof createRequestContext>;
