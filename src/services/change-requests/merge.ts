import type { Actor } from '../../domain/actor.js';
import { hashOf, parsePageFile, readPageMeta } from '../../domain/frontmatter.js';
import { atLeast, CAN } from '../../domain/policy.js';
import { AppError } from '../../errors.js';
import {
  isAncestor,
  mergeBranch,
  resolveCommit,
  type ThreeWayConflict,
} from '../../git/change-request-branches.js';
import * as pagesTable from '../../store/repositories/pages.js';
import * as requestsTable from '../../store/repositories/change-requests.js';
import type { ChangeRequestRow, WorkspaceRow } from '../../store/schema.js';
import { actorIdOf, record } from '../activity.js';
import { announcePulled } from '../sync/announce-pulled.js';
import { FOLIO_IDENTITY } from '../sync/repo-opener.js';
import { readSettings } from '../workspaces/settings.js';
import { discardBranch } from './change-requests.js';
import { changeRequestBranch } from '../../git/change-request-branches.js';
import type { LocatedRequest, RequestContext } from './context.js';
import { countApprovals } from './present.js';

const FOLIO_AUTHOR = { authorName: FOLIO_IDENTITY.name, authorEmail: FOLIO_IDENTITY.email };

/**
 * Merging change requests into the live branch, by Folio (`merge`) or on the git host
 * (`recogniseHostMerges`, after a sync). A merge runs under the same locks as a sync's,
 * and then does what a sync does after pulling: reconcile the index and search, record
 * activity, announce the pages and push.
 */
export function createRequestMerges(ctx: RequestContext) {
  const { db, deps } = ctx;

  /** A conflicted file as sync conflicts show it (ours: live, theirs: the request), with the base too. */
  async function presentConflict(ws: WorkspaceRow, c: ThreeWayConflict) {
    const row = await pagesTable.findByPath(db, ws.id, c.path);
    let pageId = row?.id ?? null;
    for (const text of [c.ours, c.theirs]) {
      if (pageId === null && text !== null) {
        const parsed = parsePageFile(text);
        if (parsed.error === undefined) pageId = readPageMeta(parsed.frontmatter).id ?? null;
      }
    }
    const hash = (text: string | null) => (text === null ? null : hashOf(text));
    return {
      path: c.path,
      page_id: pageId,
      base_hash: hash(c.base),
      ours_hash: hash(c.ours),
      theirs_hash: hash(c.theirs),
      base: c.base,
      ours: c.ours,
      theirs: c.theirs,
    };
  }

  /** Marks the request merged with its activity entry; false when something else closed it first. */
  async function markMerged(request: ChangeRequestRow, commit: string, actorId: string | null, via: string) {
    const now = deps.clock.now().toISOString();
    return db.transaction().execute(async (trx) => {
      const done = await requestsTable.updateOpen(trx, request.id, {
        status: 'merged',
        merge_commit: commit,
        merged_by: actorId,
        merged_at: now,
        updated_at: now,
      });
      if (done) {
        await record(trx, {
          workspaceId: request.workspace_id,
          action: 'change_request_merged',
          actorId,
          at: now,
          details: { number: request.number, title: request.title, commit, via },
        });
      }
      return done;
    });
  }

  /** Admins always; editors once the workspace's required approvals are given. */
  async function requireMergeRight(located: LocatedRequest): Promise<void> {
    if (atLeast(located.role, 'admin')) return;
    const required = readSettings(located.workspace, {
      frontmatterMode: deps.frontmatterMode,
    }).required_approvals;
    const approvals = countApprovals(located.request, await requestsTable.reviewsOf(db, located.request.id));
    if (approvals < required) {
      throw new AppError(
        'FORBIDDEN',
        `This change request needs ${required} approval${required === 1 ? '' : 's'} before an editor can merge it; it has ${approvals}`,
        { details: { reason: 'approvals_required', approvals, required_approvals: required } },
      );
    }
  }

  return {
    /**
     * Merges an open request into the workspace branch. A conflict with live edits changes
     * nothing and answers 409 with `details.conflicts`, one per file, in sync conflicts'
     * terms (ours: the live version, theirs: the request's) plus their common base.
     */
    async merge(actor: Actor, workspace: string, number: number) {
      const located = await ctx.requireOpen(actor, workspace, number, CAN.edit);
      await requireMergeRight(located);
      const { workspace: ws, request, branch } = located;
      const identity = await ctx.identityOf(actor);
      const outcome = await ctx.requestLock.run(`${ws.id}:${number}`, async () => {
        const fresh = await requestsTable.findByNumber(db, ws.id, number);
        if (fresh?.status !== 'open')
          throw new AppError('CONFLICT', `Change request #${number} is no longer open`);
        const merged = await deps.git.lock.run(ws.id, async () => {
          await deps.git.flushLocked(ws.id);
          const repo = await deps.git.repos.open(ws);
          await repo.commitAll({ ...FOLIO_AUTHOR, message: 'docs: commit changes found on disk' });
          const result = await mergeBranch(repo.root, branch, {
            ...identity,
            message: `Merge change request #${number}: ${request.title}`,
          });
          if (result.status === 'conflict') return { result, summary: null };
          const summary = await deps.reconciler.reconcileLocked(ws, { recordActivity: true });
          if (summary.ids_written > 0)
            await repo.commitAll({ ...FOLIO_AUTHOR, message: 'docs: assign page ids' });
          return { result, summary };
        });
        if (merged.result.status === 'conflict') {
          const conflicts = await Promise.all(merged.result.conflicts.map((c) => presentConflict(ws, c)));
          throw new AppError('CONFLICT', 'The change request conflicts with edits made to the live pages', {
            details: { reason: 'merge_conflict', conflicts },
          });
        }
        await markMerged(request, merged.result.head, actorIdOf(actor), 'folio');
        await discardBranch(ctx, located);
        return { ...merged.result, summary: merged.summary! };
      });
      announcePulled(deps.events, ws.id, outcome.changed, outcome.summary.changed);
      deps.events.emit('change-request-merged', {
        workspace_id: ws.id,
        number,
        commit: outcome.head,
        actor: actorIdOf(actor),
      });
      deps.git.pushSoon(ws.id);
      return { workspace: ws, request: (await requestsTable.findByNumber(db, ws.id, number))! };
    },

    /**
     * After a sync: an open request whose branch (with at least one edit) is now part of
     * the live branch was merged on the git host, and is marked merged.
     */
    async recogniseHostMerges(workspaceId: string): Promise<void> {
      const open = await requestsTable.listOpen(db, workspaceId);
      if (open.length === 0) return;
      const ws = await deps.access.findWorkspace(workspaceId);
      if (!ws) return;
      const root = ctx.liveRoot(ws.id);
      const live = await resolveCommit(root, `refs/heads/${ws.git_branch}`);
      if (live === null) return;
      for (const request of open) {
        const branch = changeRequestBranch(request.number);
        await ctx.requestLock.run(`${ws.id}:${request.number}`, async () => {
          const head = (await resolveCommit(root, `refs/heads/${branch}`)) ?? request.head_commit;
          if (head === request.base_commit || !(await isAncestor(root, head, live))) return;
          if (!(await markMerged(request, live, null, 'git_host'))) return;
          await discardBranch(ctx, {
            workspace: ws,
            role: 'superadmin',
            request,
            branch,
            worktree: ctx.worktreeOf(ws.id, request.number),
          });
          deps.events.emit('change-request-merged', {
            workspace_id: ws.id,
            number: request.number,
            commit: live,
            actor: null,
          });
        });
      }
    },
  };
}
