import type { z } from 'zod';
import { workspaceDir } from '../../content/workspace-meta.js';
import { WorkspaceFiles } from '../../content/workspace-files.js';
import type { Actor } from '../../domain/actor.js';
import { contentHash, parsePageFile } from '../../domain/frontmatter.js';
import { CAN } from '../../domain/policy.js';
import { AppError, conflict, invalid } from '../../errors.js';
import type { WorkspaceLock } from '../../git/lock.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/database.js';
import type { SyncConflictRow, WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import { actorIdOf } from '../activity.js';
import { commitAuthorOf } from '../commit-author.js';
import type { Clock } from '../../lib/clock.js';
import { updatePageInput } from '../pages/page-inputs.js';
import type { PagesService } from '../pages/pages.js';
import { recordResolved, type resolveConflictInput, type SyncConflicts } from './conflicts.js';
import type { SyncEngine } from './engine.js';
import { isPagePath } from '../../domain/page-extensions.js';

export interface ConflictResolutionDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  access: AccessService;
  lock: WorkspaceLock;
  pages: PagesService;
  conflicts: SyncConflicts;
  engine: SyncEngine;
  dataDir: string;
}

/** Frontmatter keys a page update may not remove (`id` is Folio's, a page always has a title). */
const KEPT_KEYS = new Set(['id', 'title']);

/**
 * Resolving a conflict through Folio: the chosen or merged
 * text is written as a page update by the caller (so the activity feed, the
 * index and the commit author say who), then a sync merges the remote with
 * that text for the path, so histories join, and pushes.
 */
export function createConflictResolution(deps: ConflictResolutionDeps) {
  const db = deps.store.db;

  /** The frontmatter patch turning the page's current frontmatter into `wanted`. */
  function patchFor(
    current: Record<string, unknown>,
    wanted: Record<string, unknown>,
  ): Record<string, unknown> {
    const patch: Record<string, unknown> = {};
    for (const key of Object.keys(current)) if (!(key in wanted) && !KEPT_KEYS.has(key)) patch[key] = null;
    for (const [key, value] of Object.entries(wanted)) if (key !== 'id') patch[key] = value;
    return patch;
  }

  /** Writes `text` (null: delete) at a page path as `actor`, through the pages service. */
  async function writePage(actor: Actor, ws: WorkspaceRow, path: string, text: string | null): Promise<void> {
    const files = new WorkspaceFiles(workspaceDir(deps.dataDir, ws.id));
    const current = await files.read(path);
    if (text === null) {
      if (current) await deps.pages.remove(actor, ws.id, path);
      return;
    }
    const parsed = parsePageFile(text);
    if (parsed.error !== undefined) throw invalid('content', parsed.error);
    // Text without a frontmatter block is a body only: the page keeps its frontmatter.
    const withFrontmatter = parsed.body !== text.replace(/^\uFEFF/, '');
    const input = updatePageInput.safeParse({
      body: parsed.body,
      // The hash of the file as it is now: the caller decided with both versions in front of them.
      ...(current ? { lastKnownHash: contentHash(current.body) } : {}),
      ...(withFrontmatter
        ? {
            frontmatter: patchFor(
              current?.error === undefined ? (current?.frontmatter ?? {}) : {},
              parsed.frontmatter,
            ),
          }
        : {}),
    });
    if (!input.success) {
      const issue = input.error.issues[0];
      throw invalid(
        'content',
        `Invalid frontmatter in the resolved text: ${issue?.path.join('.')} ${issue?.message}`,
      );
    }
    await deps.pages.update(actor, ws.id, path, input.data);
  }

  /** Any other file (an upload): written as is, committed by the sync with the caller as author. */
  async function writeFile(ws: WorkspaceRow, path: string, text: string | null): Promise<void> {
    const files = new WorkspaceFiles(workspaceDir(deps.dataDir, ws.id));
    await deps.lock.run(ws.id, async () => {
      if (text === null) await files.remove(path);
      else await files.writeRaw(path, text);
    });
  }

  /** The merged text, or the remote's version (null where the remote deleted the file). */
  async function chosenText(
    row: SyncConflictRow,
    input: z.infer<typeof resolveConflictInput>,
  ): Promise<string | null> {
    if (input.content !== undefined) return input.content;
    if (row.theirs_hash === null) return null;
    const text = await deps.conflicts.readVersion(row, 'theirs');
    if (text === null) throw conflict('The remote version of this conflict is no longer available');
    return text;
  }

  return {
    /**
     * Resolves an open conflict (edit access): `{ resolution: "ours" | "theirs" }`
     * or `{ content }`. Answers once the result is written; when the remote
     * cannot be reached the merge and push happen at the next sync, and
     * `sync_status` says so.
     */
    async resolve(
      actor: Actor,
      idOrSlug: string,
      conflictId: string,
      input: z.infer<typeof resolveConflictInput>,
    ) {
      const { workspace } = await deps.access.require(actor, idOrSlug, CAN.edit);
      const row = await deps.conflicts.requireRow(workspace.id, conflictId);
      if (row.resolved_at !== null) throw conflict('This conflict is already resolved');
      // "ours" keeps the local file as it is now (edits made since the conflict included): nothing to write.
      if (input.resolution !== 'ours') {
        const text = await chosenText(row, input);
        if (isPagePath(row.path)) await writePage(actor, workspace, row.path, text);
        else await writeFile(workspace, row.path, text);
      }
      const resolution: 'ours' | 'theirs' | 'content' =
        input.content !== undefined ? 'content' : (input.resolution ?? 'ours');
      await deps.conflicts.markResolved(row, actor, resolution);

      const user = await commitAuthorOf(db, actor);
      let message = 'Conflict resolved; the remote has the result';
      try {
        const result = await deps.engine.runSync(workspace.id, {
          trigger: 'resolve',
          actorId: actorIdOf(actor),
          ...(user ? { identity: user } : {}),
          message: `docs: resolve conflict in ${row.path}`,
        });
        if (result.status === 'conflict')
          message = 'Conflict resolved; other conflicts remain before the remote can be updated';
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        deps.logger.warn(
          { err: error, workspace_id: workspace.id },
          'sync after resolving a conflict failed',
        );
        message = 'Conflict resolved; the remote will be updated at the next sync';
      }
      await recordResolved(db, actor, workspace.id, row, resolution, deps.clock.now());
      const status = await deps.conflicts.settleStatus(workspace.id);
      return { message, page_id: row.page_id, path: row.path, resolution, sync_status: status };
    },
  };
}
