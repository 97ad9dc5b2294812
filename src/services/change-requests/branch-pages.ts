import { ulid } from 'ulid';
import { type PageFile, WorkspaceFiles } from '../../content/workspace-files.js';
import type { Actor } from '../../domain/actor.js';
import { canonicalFrontmatter, contentHash, readPageMeta } from '../../domain/frontmatter.js';
import { normalizePagePath } from '../../domain/paths.js';
import { relinkMovedPage } from '../../domain/wikilinks.js';
import { atLeast, CAN, type Requirement } from '../../domain/policy.js';
import { AppError, conflict, invalid, notFound } from '../../errors.js';
import * as pagesTable from '../../store/repositories/pages.js';
import * as requestsTable from '../../store/repositories/change-requests.js';
import type { PageRow } from '../../store/schema.js';
import { actorIdOf } from '../activity.js';
import {
  defaultStatusOf,
  frontmatterModeOf,
  presentPage,
  replaceBody,
  rowFor,
  titleFromPath,
} from '../pages/page-object.js';
import type { CreatePageInput, UpdatePageInput } from '../pages/page-inputs.js';
import { planLinkRewrites } from '../pages/move-index.js';
import { mergeFrontmatter } from '../pages/pages.js';
import type { LocatedRequest, RequestContext } from './context.js';

interface InRequest {
  located: LocatedRequest;
  path: string;
  files: WorkspaceFiles;
}

/**
 * The content API inside a change request (`?change_request=<n>`): pages are read from and
 * written to the request's worktree, each write committed to its branch as the writer.
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
  async function write<T>(
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

  async function createFile(at: InRequest, fields: Record<string, unknown>, body: string): Promise<PageFile> {
    const frontmatter = canonicalFrontmatter({ ...fields, id: ulid() });
    await at.files.write(at.path, frontmatter, body);
    return (await at.files.read(at.path))!;
  }

  return {
    /** A page as the change request has it; NOT_FOUND when the request has no such page. */
    async read(actor: Actor, workspace: string, number: number, path: string) {
      const at = await locate(actor, workspace, number, path, CAN.read);
      const file = await at.files.read(at.path);
      if (!file) throw notFound('Page');
      const page = await present(at, file, null);
      // As on the live pages: strict mode's restricted pages are for admins only.
      if (page.restricted && !atLeast(at.located.role, 'admin')) throw notFound('Page');
      return page;
    },

    /** Creates a page in the request; 409 when the request already has one at the path. */
    async create(actor: Actor, workspace: string, number: number, path: string, input: CreatePageInput) {
      const at = await locate(actor, workspace, number, path, CAN.edit);
      const file = await write(actor, at, `docs: create ${input.title}`, async () => {
        if (await at.files.exists(at.path)) throw conflict(`A page already exists at ${at.path}`);
        return createFile(
          at,
          {
            title: input.title,
            description: input.description,
            tags: input.tags && input.tags.length > 0 ? [...new Set(input.tags)] : undefined,
            status: input.publish ? 'published' : 'draft',
          },
          input.body ?? '',
        );
      });
      return present(at, file, actorIdOf(actor));
    },

    /**
     * Replaces the body and merges frontmatter, as the live PUT does: an existing page
     * needs `lastKnownHash` equal to the request's version; a missing one is created.
     */
    async update(actor: Actor, workspace: string, number: number, path: string, input: UpdatePageInput) {
      const at = await locate(actor, workspace, number, path, CAN.edit);
      const outcome = await write(actor, at, `docs: update ${at.path}`, async () => {
        const file = await at.files.read(at.path);
        if (!file) {
          if (input.lastKnownHash !== undefined) throw notFound('Page');
          const fields = mergeFrontmatter(undefined, {}, input.frontmatter);
          fields.title ??= titleFromPath(at.path);
          fields.status ??= 'draft';
          return { file: await createFile(at, fields, input.body ?? ''), created: true };
        }
        if (input.lastKnownHash === undefined) {
          throw invalid(
            'lastKnownHash',
            'lastKnownHash is required to update an existing page; send its content_hash',
          );
        }
        const current = contentHash(file.body);
        if (input.lastKnownHash !== current) {
          throw conflict('The page was changed since you read it', {
            current_hash: current,
            your_hash: input.lastKnownHash,
          });
        }
        const body = input.body ?? file.body;
        if (input.frontmatter === undefined && file.error === undefined) {
          await at.files.writeRaw(at.path, replaceBody(file, body));
        } else {
          const id = file.error === undefined ? readPageMeta(file.frontmatter).id : undefined;
          // Only the id of the row matters to the merge: it keeps the page's id as it is.
          const owner = id === undefined ? undefined : ({ id } as PageRow);
          const base = file.error === undefined ? file.frontmatter : {};
          await at.files.write(at.path, mergeFrontmatter(owner, base, input.frontmatter), body);
        }
        return { file: (await at.files.read(at.path))!, created: false };
      });
      return { page: await present(at, outcome.file, actorIdOf(actor)), created: outcome.created };
    },

    /**
     * Moves a page inside the request, keeping its page_id, and rewrites the links to it in
     * the request's other pages and its own relative links, as a live move does.
     */
    async move(actor: Actor, workspace: string, number: number, from: string, to: string) {
      const at = await locate(actor, workspace, number, from, CAN.edit);
      const target = normalizePagePath(to);
      await write(actor, at, `docs: move ${at.path} to ${target}`, async () => {
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
    async remove(actor: Actor, workspace: string, number: number, path: string) {
      const at = await locate(actor, workspace, number, path, CAN.deletePage);
      await write(actor, at, `docs: delete ${at.path}`, async () => {
        if (!(await at.files.remove(at.path))) throw notFound('Page');
      });
    },
  };
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

export type BranchPages = ReturnType<typeof createBranchPages>;
