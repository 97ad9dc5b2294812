import { ulid } from 'ulid';
import type { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { titleFromPath } from '../../domain/page-write.js';
import { normalizePagePath } from '../../domain/paths.js';
import { notFound } from '../../errors.js';
import * as pagesTable from '../../store/repositories/pages.js';
import { createPageContext, type PagesDeps } from './context.js';
import { createLiveTarget } from './live-target.js';
import type { PageObject } from './page-object.js';
import type { CreatePageInput, createPageInput, updatePageInput } from './page-inputs.js';
import { ULID_RE } from './reconcile-files.js';
import { createSaveBatcher } from './save-batch.js';
import { reorderPages } from './tree.js';
import { createTreeCache } from './tree-cache.js';
import { upsertPage } from './upsert.js';
import type { PageWhere, PageWriteTarget } from './write-target.js';

export type { PagesDeps } from './context.js';

/**
 * Pages: files in the workspace tree are the truth, the `pages` rows their index. A read,
 * write, move or delete acts on one target, chosen here from `where`: the live tree
 * (live-target.ts) or a change request's branch (`changeRequestTargets`). Every write's
 * rules are one pure function, `planPageWrite` (domain/page-write.ts), whichever the target.
 * On the live tree a write holds the workspace lock across those rules, the atomic file
 * write and the one transaction that updates the row, the activity feed and the search
 * document; events go out after commit. Creates and saves to one workspace arriving
 * together share one turn of the lock, one directory fsync and one transaction (save-batch.ts).
 */
export function createPages(deps: PagesDeps) {
  const ctx = createPageContext(deps);
  const trees = createTreeCache(ctx);
  const { db } = ctx;
  const saves = createSaveBatcher(ctx);
  const live = createLiveTarget(ctx, saves);

  /** The tree an operation acts on, chosen once from where it asks: live, or a change request's. */
  function targetOf(where: PageWhere = {}): PageWriteTarget {
    if (where.changeRequest === undefined) return live;
    if (!deps.changeRequestTargets) throw notFound('Change request');
    return deps.changeRequestTargets(where.changeRequest);
  }

  const pages = {
    /** GET: the page at `path`; a restricted page only for admins. */
    read: (actor: Actor, workspace: string, path: string, where?: PageWhere): Promise<PageObject> =>
      targetOf(where).read(actor, workspace, path),

    /** POST: creates the page; 409 when a file is already at the path. */
    async create(
      actor: Actor,
      workspace: string,
      path: string,
      input: z.infer<typeof createPageInput>,
      where?: PageWhere,
    ): Promise<PageObject> {
      const fields = {
        title: input.title,
        description: input.description,
        tags: input.tags && input.tags.length > 0 ? [...new Set(input.tags)] : undefined,
        status: input.publish ? 'published' : 'draft',
      };
      const request = { kind: 'create', fields, body: input.body ?? '' } as const;
      return (await targetOf(where).write(actor, workspace, path, request)).page;
    },

    /**
     * PUT: replaces the body and merges `frontmatter` into the
     * page's. An existing page needs `lastKnownHash` equal to its current
     * content_hash, else 409 naming who changed it and when. A missing page
     * with no lastKnownHash is created (its title from the path if none is given).
     */
    update: (
      actor: Actor,
      workspace: string,
      path: string,
      input: z.infer<typeof updatePageInput>,
      where?: PageWhere,
    ): Promise<{ page: PageObject; created: boolean }> =>
      targetOf(where).write(actor, workspace, path, {
        kind: 'update',
        body: input.body,
        lastKnownHash: input.lastKnownHash,
        frontmatter: input.frontmatter,
      }),

    /**
     * Brings back a deleted page at `path` from an earlier revision's frontmatter and body
     * (page history's restore): an ordinary create, keeping `pageId` when no page of the
     * workspace holds that id now, else under a new id. 409 when a file is at the path.
     */
    async recreate(
      actor: Actor,
      workspace: string,
      path: string,
      revision: { frontmatter: Record<string, unknown>; body: string; pageId: string | undefined },
    ): Promise<PageObject> {
      const { id: _id, ...fields } = revision.frontmatter;
      fields.title ??= titleFromPath(normalizePagePath(path));
      // Page ids are unique across the instance: an id taken since (a copy of the file) is not reused.
      const chooseId = async () => {
        const { pageId } = revision;
        const free =
          pageId !== undefined &&
          ULID_RE.test(pageId) &&
          (await pagesTable.findByIdAnywhere(db, pageId)) === undefined;
        return free ? pageId : ulid();
      };
      const request = { kind: 'create', fields, body: revision.body } as const;
      return (await live.writeWithId(actor, workspace, path, request, chooseId)).page;
    },

    /** DELETE: removes the file and its index row; the activity feed keeps its history. */
    remove: (actor: Actor, workspace: string, path: string, where?: PageWhere): Promise<void> =>
      targetOf(where).remove(actor, workspace, path),

    /** Moves a page keeping its page_id; see moves.ts. */
    move: (actor: Actor, workspace: string, from: string, to: string, where?: PageWhere) =>
      targetOf(where).move(actor, workspace, from, to),

    /** The workspace's folders and pages as a tree; see tree.ts. */
    tree: async (actor: Actor, workspace: string) => ({ tree: (await trees.get(actor, workspace)).tree }),

    /** The tree serialised once per change, with its ETag and a gzipped copy; see tree-cache.ts. */
    treeDocument: (actor: Actor, workspace: string) => trees.get(actor, workspace),

    /** How many saves to the workspace wait for its next batch; see save-batch.ts. */
    waitingSaves: (workspaceId: string) => saves.waiting(workspaceId),

    /** Writes `order` into pages of one folder; see tree.ts. */
    reorder: (actor: Actor, workspace: string, input: Parameters<typeof reorderPages>[3]) =>
      reorderPages(ctx, actor, workspace, input),
  };
  return {
    ...pages,
    /** Creates the page or replaces the one at `path`; see upsert.ts. */
    upsert: (actor: Actor, workspace: string, path: string, input: CreatePageInput) =>
      upsertPage(pages, actor, workspace, path, input),
  };
}

export type PagesService = ReturnType<typeof createPages>;
