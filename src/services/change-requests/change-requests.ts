import { ulid } from 'ulid';
import type { Actor } from '../../domain/actor.js';
import { normalizePagePath } from '../../domain/paths.js';
import { CAN } from '../../domain/policy.js';
import { AppError, invalid } from '../../errors.js';
import {
  addBranchWorktree,
  changeRequestBranch,
  deleteRemoteBranch,
  mergeBase,
  removeBranchWorktree,
  resolveCommit,
  unifiedDiff,
} from '../../git/change-request-branches.js';
import { WorkspaceRepo } from '../../git/repository.js';
import * as requestsTable from '../../store/repositories/change-requests.js';
import { findCommitAuthors } from '../../store/repositories/users.js';
import type { ChangeRequestRow, WorkspaceRow } from '../../store/schema.js';
import { actorIdOf, record } from '../activity.js';
import { FOLIO_IDENTITY } from '../sync/repo-opener.js';
import { readSettings } from '../workspaces/settings.js';
import type {
  CreateChangeRequestInput,
  ListChangeRequestsInput,
  ReviewChangeRequestInput,
} from './inputs.js';
import type { LocatedRequest, RequestContext } from './context.js';
import { type ChangedPage, changeOf, countApprovals, presentRequest, presentReview } from './present.js';

/**
 * Change requests: open, list, read with their diff and reviews, review and close. Merging
 * is in merge.ts, editing pages inside a request in branch-pages.ts.
 */
export function createChangeRequestCore(ctx: RequestContext) {
  const { db, deps } = ctx;
  const requiredOf = (ws: WorkspaceRow) =>
    readSettings(ws, { frontmatterMode: deps.frontmatterMode }).required_approvals;

  async function describe(ws: WorkspaceRow, row: ChangeRequestRow) {
    const reviews = await requestsTable.reviewsOf(db, row.id);
    return { object: presentRequest(row, countApprovals(row, reviews), requiredOf(ws)), reviews };
  }

  /**
   * What the request changes: from where its branch left the live branch (for an open
   * request) or from its base (once merged) to its last commit.
   */
  async function changes(located: LocatedRequest): Promise<{ pages: ChangedPage[]; diff: string }> {
    const root = ctx.liveRoot(located.workspace.id);
    const { request } = located;
    const head =
      request.status === 'open'
        ? ((await ctx.branchHead(located)) ?? request.head_commit)
        : request.head_commit;
    const live = await resolveCommit(root, `refs/heads/${located.workspace.git_branch}`);
    const from =
      request.status === 'open' && live
        ? ((await mergeBase(root, live, head)) ?? request.base_commit)
        : request.base_commit;
    // A closed request's commits may already be gone from the repository.
    if ((await resolveCommit(root, from)) === null || (await resolveCommit(root, head)) === null) {
      return { pages: [], diff: '' };
    }
    const repo = new WorkspaceRepo(root);
    const changed = await repo.diffNames(from, head);
    const pages: ChangedPage[] = [];
    for (const c of changed) {
      const paths = c.oldPath ? [c.oldPath, c.path] : [c.path];
      pages.push({
        path: c.path,
        old_path: c.oldPath ?? null,
        change: changeOf(c),
        diff: await unifiedDiff(root, from, head, paths),
      });
    }
    return { pages, diff: await unifiedDiff(root, from, head) };
  }

  async function namesOf(ids: ReadonlyArray<string | null>): Promise<Map<string, string>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return new Map();
    const users = await findCommitAuthors(db, wanted);
    return new Map(users.map((u) => [u.id, u.name]));
  }

  return {
    changes,
    describe,

    /** Opens a request (editors): a branch from the live branch's last commit, in a worktree of its own. */
    async create(actor: Actor, workspace: string, input: CreateChangeRequestInput) {
      const { workspace: ws } = await deps.access.require(actor, workspace, CAN.edit);
      const now = deps.clock.now().toISOString();
      const row = await deps.git.repoLock.run(ws.id, async () => {
        // Live edits still waiting for their commit, and files written without one (a
        // starter page, an edit on disk), belong in the request's starting point.
        await deps.git.flushLocked(ws.id);
        const repo = await deps.git.repos.open(ws);
        await repo.commitAll({
          authorName: FOLIO_IDENTITY.name,
          authorEmail: FOLIO_IDENTITY.email,
          message: 'docs: commit changes found on disk',
        });
        const base = await repo.head();
        if (base === null)
          throw new AppError('CONFLICT', 'The workspace has no commit to start a change request from');
        const number = await requestsTable.nextNumber(db, ws.id);
        const worktree = ctx.worktreeOf(ws.id, number);
        await addBranchWorktree(repo.root, worktree, changeRequestBranch(number), base);
        const created: ChangeRequestRow = {
          id: ulid(),
          workspace_id: ws.id,
          number,
          title: input.title,
          description: input.description,
          status: 'open',
          author_id: actorIdOf(actor),
          base_commit: base,
          head_commit: base,
          merge_commit: null,
          merged_by: null,
          closed_by: null,
          created_at: now,
          updated_at: now,
          merged_at: null,
          closed_at: null,
        };
        try {
          await db.transaction().execute(async (trx) => {
            await requestsTable.insert(trx, created);
            await record(trx, {
              workspaceId: ws.id,
              action: 'change_request_opened',
              actorId: actorIdOf(actor),
              at: now,
              details: { number, title: input.title },
            });
          });
        } catch (error) {
          await removeBranchWorktree(repo.root, worktree, changeRequestBranch(number));
          throw error;
        }
        return created;
      });
      ctx.emit('change-request-opened', {
        workspace_id: ws.id,
        number: row.number,
        title: row.title,
        actor: actorIdOf(actor),
      });
      await ctx.pushBranch(ws, changeRequestBranch(row.number));
      return presentRequest(row, 0, requiredOf(ws));
    },

    /** A workspace's requests, newest first (readers), in the API's list shape. */
    async list(actor: Actor, workspace: string, input: ListChangeRequestsInput) {
      const { workspace: ws } = await deps.access.require(actor, workspace, CAN.read);
      const rows = await requestsTable.list(db, ws.id, {
        status: input.status,
        before: input.cursor === undefined ? undefined : Number(input.cursor),
        limit: input.limit + 1,
      });
      const page = rows.slice(0, input.limit);
      const data = await Promise.all(page.map(async (row) => (await describe(ws, row)).object));
      const last = page[page.length - 1];
      return { data, next_cursor: rows.length > input.limit && last ? String(last.number) : null };
    },

    /** One request with the pages it changes, its whole diff against the live branch, and its reviews. */
    async get(actor: Actor, workspace: string, number: number) {
      const located = await ctx.require(actor, workspace, number, CAN.read);
      const { object, reviews } = await describe(located.workspace, located.request);
      const names = await namesOf(reviews.map((r) => r.reviewer_id));
      const { pages, diff } = await changes(located);
      return {
        ...object,
        pages,
        diff,
        reviews: reviews.map((r) =>
          presentReview(r, r.reviewer_id ? (names.get(r.reviewer_id) ?? null) : null),
        ),
      };
    },

    /**
     * Reviews an open request: a comment needs the commenter role, a verdict the editor role.
     * Its author cannot approve it (403, `details.reason: "self_approval"`). Inline comments
     * must name a page the request changes.
     */
    async review(actor: Actor, workspace: string, number: number, input: ReviewChangeRequestInput) {
      const need = input.verdict === 'comment' ? CAN.comment : CAN.edit;
      const located = await ctx.requireOpen(actor, workspace, number, need);
      const reviewer = actorIdOf(actor);
      if (input.verdict === 'approve' && reviewer !== null && reviewer === located.request.author_id) {
        throw new AppError('FORBIDDEN', 'You cannot approve your own change request', {
          details: { reason: 'self_approval' },
        });
      }
      const comments = input.comments.map((c) => ({ ...c, page: normalizePagePath(c.page) }));
      if (comments.length > 0) {
        const { pages } = await changes(located);
        const touched = new Set(pages.map((p) => p.path));
        comments.forEach((c, i) => {
          if (!touched.has(c.page)) invalidComment(i, `${c.page} is not a page this change request changes`);
        });
      }
      const now = deps.clock.now().toISOString();
      const id = ulid();
      await db.transaction().execute(async (trx) => {
        await requestsTable.insertReview(
          trx,
          {
            id,
            change_request_id: located.request.id,
            reviewer_id: reviewer,
            verdict: input.verdict,
            body: input.body,
            created_at: now,
          },
          comments.map((c) => ({ id: ulid(), review_id: id, page: c.page, line: c.line, body: c.body })),
        );
        await record(trx, {
          workspaceId: located.workspace.id,
          action: 'change_request_reviewed',
          actorId: reviewer,
          at: now,
          details: { number, verdict: input.verdict, comments: comments.length },
        });
      });
      ctx.emit('change-request-reviewed', {
        workspace_id: located.workspace.id,
        number,
        verdict: input.verdict,
        actor: reviewer,
      });
      const names = await namesOf([reviewer]);
      return presentReview(
        {
          id,
          change_request_id: located.request.id,
          reviewer_id: reviewer,
          verdict: input.verdict,
          body: input.body,
          created_at: now,
          comments: comments.map((c) => ({ id: '', review_id: id, ...c })),
        },
        reviewer ? (names.get(reviewer) ?? null) : null,
      );
    },

    /** Abandons an open request (editors): its worktree and branch are deleted, here and on the remote. */
    async close(actor: Actor, workspace: string, number: number) {
      const located = await ctx.requireOpen(actor, workspace, number, CAN.edit);
      const { workspace: ws, request } = located;
      const now = deps.clock.now().toISOString();
      await ctx.requestLock.run(`${ws.id}:${number}`, async () => {
        const closed = await db.transaction().execute(async (trx) => {
          const done = await requestsTable.updateOpen(trx, request.id, {
            status: 'closed',
            closed_by: actorIdOf(actor),
            closed_at: now,
            updated_at: now,
          });
          if (done) {
            await record(trx, {
              workspaceId: ws.id,
              action: 'change_request_closed',
              actorId: actorIdOf(actor),
              at: now,
              details: { number, title: request.title },
            });
          }
          return done;
        });
        if (!closed) throw new AppError('CONFLICT', `Change request #${number} is no longer open`);
        await discardBranch(ctx, located);
      });
      ctx.emit('change-request-closed', { workspace_id: ws.id, number, actor: actorIdOf(actor) });
      const fresh = await requestsTable.findByNumber(db, ws.id, number);
      return (await describe(ws, fresh!)).object;
    },
  };
}

function invalidComment(index: number, message: string): never {
  throw invalid(`comments.${index}.page`, message);
}

/** Deletes a request's worktree and branch, and the branch on the remote (best effort). */
export async function discardBranch(ctx: RequestContext, located: LocatedRequest): Promise<void> {
  const { workspace: ws, branch, worktree } = located;
  const root = ctx.liveRoot(ws.id);
  await ctx.deps.git.repoLock.run(ws.id, () => removeBranchWorktree(root, worktree, branch));
  if (!ws.git_remote) return;
  try {
    const auth = await ctx.deps.git.authFor(ws);
    await ctx.deps.git.network.run(ws.id, () => deleteRemoteBranch(root, branch, auth));
  } catch (error) {
    ctx.deps.logger.warn(
      { err: error, workspace_id: ws.id, branch },
      'deleting a change request branch failed',
    );
  }
}
