import { ulid } from 'ulid';
import { type PageFile, WorkspaceFiles } from '../../content/workspace-files.js';
import type { Actor } from '../../domain/actor.js';
import { readPageMeta } from '../../domain/frontmatter.js';
import { planPageWrite } from '../../domain/page-write.js';
import { keepPageExtension, normalizePagePath } from '../../domain/paths.js';
import { relinkMovedPage } from '../../domain/wikilinks.js';
import { atLeast, CAN, type Requirement } from '../../domain/policy.js';
import { AppError, conflict, invalid, notFound } from '../../errors.js';
import * as pagesTable from '../../store/repositories/pages.js';
import * as requestsTable from '../../store/repositories/change-requests.js';
import { actorIdOf } from '../activity.js';
import {
  defaultStatusOf,
  frontmatterModeOf,
  presentPage,
  replaceBody,
  rowFor,
} from '../pages/page-object.js';
import { planLinkRewrites } from '../pages/move-index.js';
import type { PageWriteTarget } from '../pages/write-target.js';
import type { LocatedRequest, RequestContext } from './context.js';

interface InRequest {
  located: LocatedRequest;
  path: string;
  files: WorkspaceFiles;
}

/**
 * The content API's target inside a change request (`?change_request=<n>`): pages are read
 * from and written to the request's worktree, each write committed to its branch as the writer.
 * The live tree, its index, search and the published site never see these writes; they
 * arrive with the merge.
 */
export function createBranchPages(ctx: RequestContext) {
  const { db, deps } = ctx;

  async function locate(
    actor: Actor,
    workspace: string,
    number: number,
    rawPath: string,
    need: Requirement,
  ): Promise<InRequest> {
    const located = await ctx.requireOpen(actor, workspace, number, need);
    const path = normalizePagePath(rawPath);
    await ctx.worktreeRepo(located);
    return { located, path, files: new WorkspaceFiles(located.worktree) };
  }

  /** The page object of a file in the request; its index fields come from the file itself. */
  async function present(at: InRequest, file: PageFile, updatedBy: string | null) {
    const ownId = file.error === undefined ? readPageMeta(file.frontmatter).id : undefined;
    const live = await pagesTable.findByPath(db, at.located.workspace.id, at.path);
    const id = ownId ?? live?.id ?? '';
    const row = rowFor({
      id,
      workspaceId: at.located.workspace.id,
      path: at.path,
      file,
      previous: live?.id === id ? live : undefined,
      mode: frontmatterModeOf(at.located.workspace, deps.frontmatterMode),
      defaultStatus: defaultStatusOf(at.located.workspace),
      now: deps.clock.now().toISOString(),
      updatedBy,
    });
    return presentPage(row, file.body);
  }

  /** Runs one write under the request's lock and commits what it changed to the branch. */
  async function commitChange<T>(
    actor: Actor,
    at: InRequest,
    message: string,
    change: () => Promise<T>,
  ): Promise<T> {
    const { located } = at;
    const result = await ctx.requestLock.run(
      `${located.workspace.id}:${located.request.number}`,
      async () => {
        // Merged or closed while this write waited its turn: its worktree is gone.
        const fresh = await requestsTable.findByNumber(db, located.workspace.id, located.request.number);
        if (fresh?.status !== 'open')
          throw conflict(`Change request #${located.request.number} is no longer open`);
        const value = await fsWrite(at.path, change);
        const repo = await ctx.worktreeRepo(located);
        const head = await repo.commitAll({ ...(await ctx.identityOf(actor)), message });
        if (head !== null) {
          await requestsTable.updateOpen(db, located.request.id, {
            head_commit: head,
            updated_at: deps.clock.now().toISOString(),
          });
        }
        return value;
      },
    );
    await ctx.pushBranch(located.workspace, located.branch);
    return result;
  }

  /** The target of request `number`: the content API's operations inside it. */
  return (number: number): PageWriteTarget => ({
    /** A page as the change request has it; NOT_FOUND when the request has no such page. */
    async read(actor, workspace, path) {
      const at = await locate(actor, workspace, number, path, CAN.read);
      const file = await at.files.read(at.path);
      if (!file) throw notFound('Page');
      const page = await present(at, file, null);
      // As on the live pages: strict mode's restricted pages are for admins only.
      if (page.restricted && !atLeast(at.located.role, 'admin')) throw notFound('Page');
      return page;
    },

    /**
     * Writes a page in the request under the rules of every page write (`planPageWrite`),
     * the request's version of the page being the one its hash is checked against, and
     * commits it to the request's branch as the writer.
     */
    async write(actor, workspace, path, request) {
      const at = await locate(actor, workspace, number, path, CAN.edit);
      const message =
        request.kind === 'create'
          ? `docs: create ${String(request.fields.title)}`
          : `docs: update ${at.path}`;
      const outcome = await commitChange(actor, at, message, async () => {
        const current = await at.files.read(at.path);
        // The request's file is the page's only truth here: its own id is the one it keeps.
        const ownId =
          current && current.error === undefined ? readPageMeta(current.frontmatter).id : undefined;
        const result = await planPageWrite(current, request, {
          path: at.path,
          newId: ulid(),
          pageId: ownId,
          lastGood: {},
        });
        if (result.kind === 'unchanged') return { file: current!, created: false };
        await at.files.writeRaw(at.path, result.text);
        return {
          file: { text: result.text, frontmatter: result.frontmatter, body: result.body },
          created: result.kind === 'created',
        };
      });
      return { page: await present(at, outcome.file, actorIdOf(actor)), created: outcome.created };
    },

    /**
     * Moves a page inside the request, keeping its page_id, and rewrites the links to it in
     * the request's other pages and its own relative links, as a live move does.
     */
    async move(actor, workspace, from, to) {
      const at = await locate(actor, workspace, number, from, CAN.edit);
      const target = normalizePagePath(keepPageExtension(to, at.path));
      await commitChange(actor, at, `docs: move ${at.path} to ${target}`, async () => {
        const page = await at.files.read(at.path);
        if (!page) throw notFound('Page');
        // Every rewrite is worked out before a file changes, so a read failure changes nothing.
        const linking =
          target === at.path ? [] : await planLinkRewrites(at.files, new Map(), at.path, target);
        const relinked = relinkMovedPage(page.body, at.path, target);
        await at.files.move(at.path, target);
        if (relinked.changed) await at.files.writeRaw(target, replaceBody(page, relinked.body));
        for (const other of linking) await at.files.writeRaw(other.path, other.text);
      });
      const moved = { ...at, path: target };
      const file = await at.files.read(target);
      if (!file) throw notFound('Page');
      return present(moved, file, actorIdOf(actor));
    },

    /** Deletes a page in the request; the live page stays until the request is merged. */
    async remove(actor, workspace, path) {
      const at = await locate(actor, workspace, number, path, CAN.deletePage);
      await commitChange(actor, at, `docs: delete ${at.path}`, async () => {
        if (!(await at.files.remove(at.path))) throw notFound('Page');
      });
    },
  });
}

/** Runs a file-system write, turning "something is in the way" into 409 and over-long names into 400. */
async function fsWrite<T>(path: string, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR') {
      throw conflict(`A file or folder is in the way of ${path}`);
    }
    if (code === 'ENAMETOOLONG') throw invalid('path', 'Path is too long for the file system');
    throw error;
  }
}
