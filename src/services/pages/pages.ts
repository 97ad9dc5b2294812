import { ulid } from 'ulid';
import type { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import {
  canonicalFrontmatter,
  contentHash,
  exceedsFrontmatterLimits,
  FRONTMATTER_LIMITS_MESSAGE,
  frontmatterHash,
  MAX_FRONTMATTER_BYTES,
  MAX_FRONTMATTER_KEYS,
  parsePageFile,
  serializePageFile,
} from '../../domain/frontmatter.js';
import { patchFrontmatterText } from '../../domain/frontmatter-patch.js';
import { CAN } from '../../domain/policy.js';
import { AppError, conflict, invalid } from '../../errors.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { PageRow } from '../../store/schema.js';
import { actorIdOf, record } from '../activity.js';
import { createPageContext, type Current, type Located, type PagesDeps } from './context.js';
import {
  defaultStatusOf,
  type PageObject,
  parseTags,
  presentPage,
  replaceBody,
  rowFor,
  titleFromPath,
} from './page-object.js';
import { movePage } from './moves.js';
import { reorderPages } from './tree.js';
import { createTreeCache } from './tree-cache.js';
import { upsertPage } from './upsert.js';
import { type BatchState, createSaveBatcher, DEFER_SAVE, type SavePlan } from './save-batch.js';
import { ULID_RE } from './reconcile-files.js';
import {
  type CreatePageInput,
  type createPageInput,
  type FrontmatterPatch,
  type updatePageInput,
} from './page-inputs.js';

export type { PagesDeps } from './context.js';

/**
 * Pages: files in the workspace tree are the truth, the `pages` rows their
 * index. Every write holds the workspace lock across the hash check, the
 * atomic file write and the one transaction that updates the row, the
 * activity feed and the search document; events go out after commit. Creates
 * and saves to one workspace arriving together share one turn of the lock,
 * one directory fsync and one transaction (save-batch.ts).
 */
export function createPages(deps: PagesDeps) {
  const ctx = createPageContext(deps);
  const trees = createTreeCache(ctx);
  const { db } = ctx;
  const { events, clock, searchIndex, lock } = deps;
  const saves = createSaveBatcher(ctx);

  /**
   * Plans a new page file and its row; the caller has checked the path is free. A new page
   * gets a new id; a restored one may bring back its own (`id`).
   */
  function planCreate(
    actor: Actor,
    loc: Located,
    fields: Record<string, unknown>,
    body: string,
    id: string = ulid(),
  ): SavePlan {
    const now = clock.now().toISOString();
    const frontmatter = canonicalFrontmatter({ ...fields, id });
    const row = rowFor({
      id: frontmatter.id as string,
      workspaceId: loc.workspace.id,
      path: loc.path,
      file: { frontmatter, body },
      previous: undefined,
      mode: 'lenient',
      defaultStatus: defaultStatusOf(loc.workspace),
      now,
      updatedBy: actorIdOf(actor),
    });
    const activity = {
      workspaceId: loc.workspace.id,
      action: 'page_created',
      path: loc.path,
      pageId: row.id,
      actorId: actorIdOf(actor),
      at: now,
      details: { title: row.title, content_hash: row.content_hash },
    } as const;
    return {
      outcome: { row, body, created: true, changed: true },
      write: { text: serializePageFile(frontmatter, body), row, body, exists: false, activity },
    };
  }

  /** 409 when a file is already at the page's path. */
  function requireFree(loc: Located, current: Current): void {
    if (current.file) {
      throw new AppError('CONFLICT', `A page already exists at ${loc.path}`, {
        details: { path: loc.path, page_id: current.row?.id ?? null },
      });
    }
  }

  /**
   * The plan limit on pages, asked before a save creates one. The index does not count the
   * pages earlier saves of the batch create, so such a save waits for the next batch.
   */
  async function requirePageRoom(loc: Located, batch: BatchState): Promise<void> {
    if (!deps.planLimits) return;
    if (batch.pagesCreated > 0) throw DEFER_SAVE;
    await deps.planLimits.requirePage(loc.workspace.org_id);
  }

  const pages = {
    /** SPEC.md 4.2 GET: the page at `path`; a restricted page only for admins. */
    async read(actor: Actor, workspace: string, path: string): Promise<PageObject> {
      const loc = await ctx.locate(actor, workspace, path, CAN.read);
      const { file, row } = await ctx.requireVisible(loc, await ctx.current(loc));
      return presentPage(row, file.body);
    },

    /** SPEC.md 4.2 POST: creates the page; 409 when a file is already at the path. */
    async create(
      actor: Actor,
      workspace: string,
      path: string,
      input: z.infer<typeof createPageInput>,
    ): Promise<PageObject> {
      const loc = await ctx.locate(actor, workspace, path, CAN.edit);
      const { row } = await saves.save({
        loc,
        async plan(current, batch) {
          await requirePageRoom(loc, batch);
          requireFree(loc, current);
          return planCreate(
            actor,
            loc,
            {
              title: input.title,
              description: input.description,
              tags: input.tags && input.tags.length > 0 ? [...new Set(input.tags)] : undefined,
              status: input.publish ? 'published' : 'draft',
            },
            input.body ?? '',
          );
        },
      });
      events.emit('page-created', {
        workspace_id: loc.workspace.id,
        path: row.path,
        actor: actorIdOf(actor),
      });
      return presentPage(row, input.body ?? '');
    },

    /**
     * SPEC.md 4.2 PUT: replaces the body and merges `frontmatter` into the
     * page's. An existing page needs `lastKnownHash` equal to its current
     * content_hash, else 409 naming who changed it and when. A missing page
     * with no lastKnownHash is created (its title from the path if none is given).
     */
    async update(
      actor: Actor,
      workspace: string,
      path: string,
      input: z.infer<typeof updatePageInput>,
    ): Promise<{ page: PageObject; created: boolean }> {
      const loc = await ctx.locate(actor, workspace, path, CAN.edit);
      const result = await saves.save({
        loc,
        plan: async (current, batch) => {
          if (!current.file) {
            if (input.lastKnownHash !== undefined) await ctx.requireVisible(loc, current);
            await requirePageRoom(loc, batch);
            const fields = mergeFrontmatter(undefined, {}, input.frontmatter);
            fields.title ??= titleFromPath(loc.path);
            fields.status ??= 'draft';
            return planCreate(actor, loc, fields, input.body ?? '');
          }
          const { file, row } = await ctx.requireVisible(loc, current);
          // Reading the file parsed its YAML; merging and patching it is more YAML work, each
          // step given its own turn of the event loop (see `authorText`).
          await nextTurn();
          if (input.lastKnownHash === undefined) {
            throw invalid(
              'lastKnownHash',
              'lastKnownHash is required to update an existing page; send its content_hash',
            );
          }
          const currentHash = contentHash(file.body);
          if (input.lastKnownHash !== currentHash) {
            throw conflict('The page was changed since you read it', {
              current_hash: currentHash,
              your_hash: input.lastKnownHash,
              modified_by: row.updated_by,
              modified_at: row.updated_at,
            });
          }
          const frontmatter = mergeFrontmatter(
            row,
            file.error === undefined ? file.frontmatter : lastGood(row),
            input.frontmatter,
          );
          const body = input.body ?? file.body;
          const now = clock.now().toISOString();
          const next = rowFor({
            id: row.id,
            workspaceId: loc.workspace.id,
            path: loc.path,
            file: { frontmatter, body },
            previous: row,
            mode: 'lenient',
            defaultStatus: defaultStatusOf(loc.workspace),
            now,
            updatedBy: actorIdOf(actor),
          });
          const unchanged =
            file.error === undefined &&
            next.content_hash === row.content_hash &&
            next.frontmatter_hash === row.frontmatter_hash;
          if (unchanged) return { outcome: { row, body, created: false, changed: false } };
          // The author's frontmatter text (comments, key order, line endings) is kept byte for
          // byte: a body-only save leaves it alone, a frontmatter change patches just its keys.
          const text = await authorText(file, input.frontmatter, frontmatter);
          return {
            outcome: { row: next, body, created: false, changed: true },
            write: {
              text:
                text !== null ? replaceBody({ ...file, text }, body) : serializePageFile(frontmatter, body),
              row: next,
              body,
              exists: true,
              activity: {
                workspaceId: loc.workspace.id,
                action: 'page_updated',
                path: loc.path,
                pageId: row.id,
                actorId: actorIdOf(actor),
                at: now,
                details: { previous_hash: row.content_hash, content_hash: next.content_hash },
              },
            },
          };
        },
      });
      if (result.changed) {
        const type = result.created ? 'page-created' : 'page-updated';
        events.emit(type, { workspace_id: loc.workspace.id, path: loc.path, actor: actorIdOf(actor) });
      }
      return { page: presentPage(result.row, result.body), created: result.created };
    },

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
      const loc = await ctx.locate(actor, workspace, path, CAN.edit);
      const { row } = await saves.save({
        loc,
        async plan(current) {
          requireFree(loc, current);
          const { id: _id, ...fields } = revision.frontmatter;
          fields.title ??= titleFromPath(loc.path);
          // Page ids are unique across the instance: an id taken since (a copy of the file) is not reused.
          const free =
            revision.pageId !== undefined &&
            ULID_RE.test(revision.pageId) &&
            (await pagesTable.findByIdAnywhere(db, revision.pageId)) === undefined;
          return planCreate(actor, loc, fields, revision.body, free ? revision.pageId : undefined);
        },
      });
      events.emit('page-created', {
        workspace_id: loc.workspace.id,
        path: row.path,
        actor: actorIdOf(actor),
      });
      return presentPage(row, revision.body);
    },

    /** SPEC.md 4.2 DELETE: removes the file and its index row; the activity feed keeps its history. */
    async remove(actor: Actor, workspace: string, path: string): Promise<void> {
      const loc = await ctx.locate(actor, workspace, path, CAN.deletePage);
      await lock.run(loc.workspace.id, async () => {
        const { row } = await ctx.requireVisible(loc, await ctx.currentLocked(loc));
        await loc.files.remove(loc.path);
        const now = clock.now().toISOString();
        await db.transaction().execute(async (trx) => {
          await pagesTable.deleteByIds(trx, [row.id]);
          await trx.deleteFrom('page_aliases').where('page_id', '=', row.id).execute();
          await searchIndex.remove(trx, row.id);
          await record(trx, {
            workspaceId: loc.workspace.id,
            action: 'page_deleted',
            path: loc.path,
            pageId: row.id,
            actorId: actorIdOf(actor),
            at: now,
            details: { title: row.title, content_hash: row.content_hash },
          });
        });
      });
      events.emit('page-deleted', {
        workspace_id: loc.workspace.id,
        path: loc.path,
        actor: actorIdOf(actor),
      });
    },

    /** Moves a page keeping its page_id; see page-moves.ts. */
    move: (actor: Actor, workspace: string, from: string, to: string) =>
      movePage(ctx, actor, workspace, from, to),

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

/** Lets other requests run before the next step of a write. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The file's text with `patch` applied to the author's own frontmatter, or null when
 * it must be written out canonically instead (broken YAML, no frontmatter block, or a
 * patched text that would not read back as `merged`). Patching and reading back are each
 * one pass over YAML of up to MAX_FRONTMATTER_BYTES; the event loop gets a turn between.
 */
async function authorText(
  file: { text: string; body: string; frontmatter: Record<string, unknown>; error?: string },
  patch: Record<string, unknown> | undefined,
  merged: Record<string, unknown>,
): Promise<string | null> {
  if (file.error !== undefined) return null;
  if (patch === undefined) return file.text;
  const text = patchFrontmatterText(file.text, patch, file.frontmatter);
  if (text === null) return null;
  await nextTurn();
  const reread = parsePageFile(text);
  const same = reread.error === undefined && frontmatterHash(reread.frontmatter) === frontmatterHash(merged);
  return same ? text : null;
}

/** The frontmatter a broken file last had, rebuilt from its index row (lenient and strict modes). */
function lastGood(row: PageRow): Record<string, unknown> {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    tags: parseTags(row.tags),
    status: row.status,
    ...(row.sort_order !== 0 ? { order: row.sort_order } : {}),
  };
}

/** The 400 for frontmatter over the limits, naming them in its message and details. */
function frontmatterTooLarge(): AppError {
  return new AppError('VALIDATION_ERROR', FRONTMATTER_LIMITS_MESSAGE, {
    details: { field: 'frontmatter', max_keys: MAX_FRONTMATTER_KEYS, max_bytes: MAX_FRONTMATTER_BYTES },
  });
}

/** `base` with `patch` applied: `null` removes a key; `id` stays the row's (absent for a new page). */
export function mergeFrontmatter(
  row: PageRow | undefined,
  base: Record<string, unknown>,
  patch: FrontmatterPatch | undefined,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (key === 'id') {
      if (value !== undefined && value !== row?.id) {
        throw invalid('frontmatter.id', 'Folio assigns page ids; an id cannot be set or changed');
      }
      continue;
    }
    if (key === '__proto__') continue;
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  if (row) merged.id = row.id;
  else delete merged.id;
  if (exceedsFrontmatterLimits(merged)) throw frontmatterTooLarge();
  return merged;
}
