import { ulid } from 'ulid';
import type { Actor } from '../../domain/actor.js';
import { type PageWriteRequest, planPageWrite } from '../../domain/page-write.js';
import { CAN } from '../../domain/policy.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { PageRow } from '../../store/schema.js';
import { type ActivityEntry, actorIdOf, record } from '../activity.js';
import { commitAuthorOf } from '../commit-author.js';
import type { PageContext } from './context.js';
import { movePage } from './moves.js';
import { defaultStatusOf, parseTags, presentPage, rowFor, type PageObject } from './page-object.js';
import { type BatchState, DEFER_SAVE, type SaveBatcher, type SavePlan } from './save-batch.js';
import type { PageWriteTarget } from './write-target.js';
import { nextLoopTurn } from '../../lib/event-loop-turn.js';

/** The live tree as a page target, with what only the live tree has: a restored page's own id. */
export interface LiveTarget extends PageWriteTarget {
  /**
   * `write` for a create whose page id `chooseId` picks under the workspace lock (a restored
   * page's old id, when still free).
   */
  writeWithId(
    actor: Actor,
    workspace: string,
    path: string,
    request: PageWriteRequest,
    chooseId: () => Promise<string>,
  ): Promise<{ page: PageObject; created: boolean }>;
}

/**
 * The live workspace tree: a write's rules (`planPageWrite`) are checked under the
 * workspace lock in the save batch, against the file and its index row; the file, the row,
 * the activity entry and the search document are written with the batch, and the page
 * event, carrying the page's title and the writer's commit identity, goes out after.
 */
export function createLiveTarget(ctx: PageContext, saves: SaveBatcher): LiveTarget {
  const { db, deps } = ctx;
  const { events, clock, searchIndex, lock } = deps;

  /** How the writer's commit names them; none for the system actor (Folio's own identity). */
  const authorOf = (actor: Actor) => commitAuthorOf(db, actor);

  /**
   * The plan limit on pages, asked before a save creates one. The index does not count the
   * pages earlier saves of the batch create, so such a save waits for the next batch.
   */
  async function requirePageRoom(orgId: string, batch: BatchState): Promise<void> {
    if (!deps.planLimits) return;
    if (batch.pagesCreated > 0) throw DEFER_SAVE;
    await deps.planLimits.requirePage(orgId);
  }

  async function write(
    actor: Actor,
    workspace: string,
    path: string,
    request: PageWriteRequest,
    chooseId: () => Promise<string> = async () => ulid(),
  ): Promise<{ page: PageObject; created: boolean }> {
    const [loc, author] = await Promise.all([ctx.locate(actor, workspace, path, CAN.edit), authorOf(actor)]);
    const actorId = actorIdOf(actor);
    const result = await saves.save({
      loc,
      async plan(current, batch): Promise<SavePlan> {
        // The page must be one the writer may see (404, naming where it moved, otherwise).
        const known =
          request.kind === 'update' && (current.file !== null || request.lastKnownHash !== undefined)
            ? (await ctx.requireVisible(loc, current)).row
            : undefined;
        if (request.kind === 'create' || !current.file) await requirePageRoom(loc.workspace.org_id, batch);
        // Reading the file parsed its YAML; the write's rules are more YAML work, in a turn of their own.
        else await nextLoopTurn();
        const planned = await planPageWrite(current.file, request, {
          path: loc.path,
          // Only a missing page is created: an existing one never needs a new id.
          newId: current.file ? '' : await chooseId(),
          pageId: current.row?.id,
          lastGood: known ? lastGood(known) : {},
          ...(known ? { lastChange: { modified_by: known.updated_by, modified_at: known.updated_at } } : {}),
        });
        if (planned.kind === 'unchanged') {
          return { outcome: { row: known!, body: current.file!.body, created: false, changed: false } };
        }
        const created = planned.kind === 'created';
        const now = clock.now().toISOString();
        const row = rowFor({
          id: created ? (planned.frontmatter.id as string) : known!.id,
          workspaceId: loc.workspace.id,
          path: loc.path,
          file: { frontmatter: planned.frontmatter, body: planned.body },
          previous: created ? undefined : known,
          mode: 'lenient',
          defaultStatus: defaultStatusOf(loc.workspace),
          now,
          updatedBy: actorId,
        });
        const activity: ActivityEntry = {
          workspaceId: loc.workspace.id,
          action: created ? 'page_created' : 'page_updated',
          path: loc.path,
          pageId: row.id,
          actorId,
          at: now,
          details: created
            ? { title: row.title, content_hash: row.content_hash }
            : { previous_hash: known!.content_hash, content_hash: row.content_hash },
        };
        return {
          outcome: { row, body: planned.body, created, changed: true },
          write: { text: planned.text, row, body: planned.body, exists: !created, activity },
        };
      },
    });
    if (result.changed) {
      events.emit(result.created ? 'page-created' : 'page-updated', {
        workspace_id: loc.workspace.id,
        path: loc.path,
        actor: actorId,
        title: result.row.title,
        ...(author ? { author } : {}),
      });
    }
    return { page: presentPage(result.row, result.body), created: result.created };
  }

  return {
    /** The page at `path`; a restricted page only for admins. */
    async read(actor, workspace, path) {
      const loc = await ctx.locate(actor, workspace, path, CAN.read);
      const { file, row } = await ctx.requireVisible(loc, await ctx.current(loc));
      return presentPage(row, file.body);
    },

    write: (actor, workspace, path, request) => write(actor, workspace, path, request),

    writeWithId: write,

    /** Moves a page keeping its page_id; see moves.ts. */
    move: async (actor, workspace, from, to) =>
      movePage(ctx, actor, workspace, from, to, await authorOf(actor)),

    /** Removes the file and its index row; the activity feed keeps its history. */
    async remove(actor, workspace, path) {
      const [loc, author] = await Promise.all([
        ctx.locate(actor, workspace, path, CAN.deletePage),
        authorOf(actor),
      ]);
      await lock.run(loc.workspace.id, async () => {
        const { row } = await ctx.requireVisible(loc, await ctx.currentLocked(loc));
        await loc.files.remove(loc.path);
        const now = clock.now().toISOString();
        await db.transaction().execute(async (trx) => {
          await pagesTable.deleteByIds(trx, [row.id]);
          await pagesTable.deleteAliasesOf(trx, row.id);
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
        ...(author ? { author } : {}),
      });
    },
  };
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
