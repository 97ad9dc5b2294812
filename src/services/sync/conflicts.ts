import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { z } from 'zod';
import { workspaceDir } from '../../content/workspace-meta.js';
import type { Actor } from '../../domain/actor.js';
import { hashOf, parsePageFile, readPageMeta } from '../../domain/frontmatter.js';
import { CAN } from '../../domain/policy.js';
import { AppError, conflict, notFound } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { ConflictFile } from '../../git/repository.js';
import type { Store } from '../../store/database.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { Queryable } from '../../store/repositories/queryable.js';
import * as syncState from '../../store/repositories/sync-state.js';
import type { SyncConflictRow, WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import { actorIdOf, record } from '../activity.js';
import type { Clock } from '../../lib/clock.js';
import { ULID_RE } from '../pages/reconcile.js';
import type { SyncState, SyncStatus } from './state.js';
import { isPagePath } from '../../domain/page-extensions.js';

/** The API's conflict record, with its `id`. */
export interface ConflictRecord {
  id: string;
  path: string;
  page_id: string;
  ours_hash: string | null;
  theirs_hash: string | null;
  timestamp: string;
}

export type ConflictVersion = 'ours' | 'theirs';

export const conflictVersion = z.enum(['ours', 'theirs'], { error: 'version must be "ours" or "theirs"' });

/** The path parameters of a conflict download. */
export const conflictDownloadParams = z.object({
  page_id: z.string().min(1).max(100),
  timestamp: z.string().min(1).max(100),
  version: conflictVersion,
});

/** Resolve body: keep one side, or give the merged text (a whole file; frontmatter optional). */
export const resolveConflictInput = z
  .object({
    resolution: conflictVersion.optional().describe('Keep one side whole.'),
    content: z
      .string()
      .max(10 * 1024 * 1024)
      .optional()
      .describe('The merged page text (frontmatter and body), instead of a side.'),
  })
  .refine((v) => (v.resolution === undefined) !== (v.content === undefined), {
    message: 'Send either resolution ("ours" or "theirs") or content, not both',
    path: ['resolution'],
  });

/** A compact UTC timestamp: 20250115T103045Z. */
export const compactStamp = (date: Date): string =>
  date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');

const STAMP_RE = /^\d{8}T\d{6}Z$/;
const RESOLVED_BY_USER = ['ours', 'theirs', 'content'];

/** Records that a conflict was resolved, whoever resolved it and however; answers the entry id. */
export function recordResolved(
  db: Queryable,
  actor: Actor,
  workspaceId: string,
  row: SyncConflictRow,
  resolution: string,
  at: Date,
): Promise<string> {
  return record(db, {
    workspaceId,
    action: 'conflict_resolved',
    path: row.path,
    pageId: row.page_id,
    actorId: actorIdOf(actor),
    at: at.toISOString(),
    details: { conflict_id: row.id, timestamp: row.stamp, resolution },
  });
}

const present = (row: SyncConflictRow): ConflictRecord => ({
  id: row.id,
  path: row.path,
  page_id: row.page_id,
  ours_hash: row.ours_hash,
  theirs_hash: row.theirs_hash,
  timestamp: row.stamp,
});

const hashOrNull = (text: string | null): string | null => (text === null ? null : hashOf(text));

/**
 * Sync conflicts: the record of each file a merge could not combine, with both
 * versions kept as files under `.folio/conflicts/<page_id>/<timestamp>/`
 * (git-ignored) until it is resolved. The sync engine records them under the
 * workspace lock; people list, inspect, download and clear them here.
 */
export function createSyncConflicts(deps: {
  store: Store;
  clock: Clock;
  events: EventBus;
  access: AccessService;
  state: SyncState;
  dataDir: string;
}) {
  const db = deps.store.db;

  const artefactDir = (row: Pick<SyncConflictRow, 'workspace_id' | 'page_id' | 'stamp'>) =>
    path.join(workspaceDir(deps.dataDir, row.workspace_id), '.folio', 'conflicts', row.page_id, row.stamp);
  // Pages keep the API's ours.md / theirs.md; another file keeps its own extension.
  const artefactFile = (row: SyncConflictRow, version: ConflictVersion) =>
    path.join(artefactDir(row), `${version}${path.posix.extname(row.path) || '.md'}`);

  const openRows = (workspaceId: string) => syncState.listOpenConflicts(db, workspaceId);

  async function readVersion(row: SyncConflictRow, version: ConflictVersion): Promise<string | null> {
    return readFile(artefactFile(row, version), 'utf8').catch(() => null);
  }

  /** The page a conflicted file belongs to: its index row, else the id in either side's frontmatter. */
  async function pageIdFor(workspaceId: string, c: ConflictFile): Promise<string> {
    const row = await pagesTable.findByPath(db, workspaceId, c.path);
    if (row) return row.id;
    for (const text of [c.ours, c.theirs]) {
      const id = text === null ? undefined : readPageMeta(parsePageFile(text).frontmatter).id;
      if (id && ULID_RE.test(id)) return id;
    }
    return ulid();
  }

  /** A stamp not yet used for this page (two conflicts of one page within a second). */
  async function freeStamp(pageId: string): Promise<string> {
    for (let t = deps.clock.now().getTime(); ; t += 1000) {
      const stamp = compactStamp(new Date(t));
      if (!(await syncState.isConflictStampTaken(db, pageId, stamp))) return stamp;
    }
  }

  async function close(row: SyncConflictRow, resolution: string, actorId: string | null): Promise<void> {
    await syncState.closeConflict(db, row.id, {
      resolved_at: deps.clock.now().toISOString(),
      resolved_by: actorId,
      resolution,
    });
    await rm(artefactDir(row), { recursive: true, force: true });
  }

  /** `conflict` while open conflicts remain; otherwise leaves `conflict` for `idle`. */
  async function settleStatus(workspaceId: string): Promise<SyncStatus> {
    const open = (await openRows(workspaceId)).length > 0;
    const current = await deps.state.status(workspaceId);
    if (open) await deps.state.setStatus(workspaceId, 'conflict');
    else if (current === 'conflict') await deps.state.setStatus(workspaceId, 'idle');
    return deps.state.status(workspaceId);
  }

  async function findByArtefact(pageId: string, stamp: string): Promise<SyncConflictRow> {
    if (!STAMP_RE.test(stamp) || pageId.length > 100) throw notFound('Conflict');
    const row = await syncState.findConflictByStamp(db, pageId, stamp);
    if (!row) throw notFound('Conflict');
    return row;
  }

  async function requireRow(workspaceId: string, conflictId: string): Promise<SyncConflictRow> {
    if (conflictId.length > 100) throw notFound('Conflict');
    const row = await syncState.findConflict(db, workspaceId, conflictId);
    if (!row) throw notFound('Conflict');
    return row;
  }

  return {
    hasOpen: async (workspaceId: string): Promise<boolean> => (await openRows(workspaceId)).length > 0,
    settleStatus,

    /**
     * Records the conflicts of a merge (the caller holds the workspace lock).
     * A path already open with the same two versions is not recorded twice; an
     * open one whose versions changed is replaced. Emits `conflict-detected`
     * and records `conflict_detected` activity for each new record.
     */
    async recordLocked(workspace: WorkspaceRow, files: ConflictFile[]): Promise<ConflictRecord[]> {
      const open = await openRows(workspace.id);
      for (const c of files) {
        const ours = hashOrNull(c.ours);
        const theirs = hashOrNull(c.theirs);
        const same = open.find((r) => r.path === c.path);
        if (same && same.ours_hash === ours && same.theirs_hash === theirs) continue;
        if (same) await close(same, 'superseded', null);
        const pageId = await pageIdFor(workspace.id, c);
        const row: SyncConflictRow = {
          id: ulid(),
          workspace_id: workspace.id,
          path: c.path,
          page_id: pageId,
          ours_hash: ours,
          theirs_hash: theirs,
          stamp: await freeStamp(pageId),
          created_at: deps.clock.now().toISOString(),
          resolved_at: null,
          resolved_by: null,
          resolution: null,
        };
        await mkdir(artefactDir(row), { recursive: true });
        if (c.ours !== null) await writeFile(artefactFile(row, 'ours'), c.ours);
        if (c.theirs !== null) await writeFile(artefactFile(row, 'theirs'), c.theirs);
        await db.transaction().execute(async (trx) => {
          await syncState.insertConflict(trx, row);
          await record(trx, {
            workspaceId: workspace.id,
            action: 'conflict_detected',
            path: c.path,
            pageId,
            actorId: null,
            at: row.created_at,
            details: { conflict_id: row.id, timestamp: row.stamp, ours_hash: ours, theirs_hash: theirs },
          });
        });
        deps.events.emit('conflict-detected', { workspace_id: workspace.id, path: c.path });
      }
      return (await openRows(workspace.id)).map(present);
    },

    /**
     * For a merge in progress: the text to commit for each conflicted path a
     * user already resolved against exactly this remote version (their result
     * is the local file, i.e. `ours`). Paths not covered are left out.
     */
    async resolvedTexts(workspaceId: string, files: ConflictFile[]): Promise<Map<string, string | null>> {
      const out = new Map<string, string | null>();
      for (const c of files) {
        const resolvedAgainst = await syncState.findLatestResolvedTheirsHash(
          db,
          workspaceId,
          c.path,
          RESOLVED_BY_USER,
        );
        if (resolvedAgainst !== undefined && resolvedAgainst === hashOrNull(c.theirs))
          out.set(c.path, c.ours);
      }
      return out;
    },

    /** Sets every open conflict aside (the remote or branch changed, so they no longer apply). */
    async supersedeAll(workspaceId: string): Promise<void> {
      for (const row of await openRows(workspaceId)) await close(row, 'superseded', null);
      await settleStatus(workspaceId);
    },

    /** The open conflicts of a workspace (read access). */
    async list(actor: Actor, idOrSlug: string) {
      const { workspace } = await deps.access.require(actor, idOrSlug, CAN.read);
      const rows = await openRows(workspace.id);
      const status = await deps.state.status(workspace.id);
      return { workspace_id: workspace.id, sync_status: status, conflicts: rows.map(present) };
    },

    /** One conflict with both versions' text (null where that side deleted the file). */
    async get(actor: Actor, idOrSlug: string, conflictId: string) {
      const { workspace } = await deps.access.require(actor, idOrSlug, CAN.read);
      const row = await requireRow(workspace.id, conflictId);
      return {
        ...present(row),
        workspace_id: workspace.id,
        resolved_at: row.resolved_at,
        resolution: row.resolution,
        ours: await readVersion(row, 'ours'),
        theirs: await readVersion(row, 'theirs'),
      };
    },

    /** A conflict of the workspace by id; 404 when there is none. */
    requireRow,

    readVersion,

    /** One side of a conflict as written, for anyone who can read its workspace. */
    async download(actor: Actor, pageId: string, stamp: string, version: ConflictVersion) {
      const row = await findByArtefact(pageId, stamp);
      await deps.access.require(actor, row.workspace_id, CAN.read);
      const text = await readVersion(row, version);
      if (text === null) {
        throw new AppError(
          'NOT_FOUND',
          row.resolved_at ? 'The conflict was resolved' : `The ${version} side deleted the file`,
        );
      }
      return { text, markdown: isPagePath(row.path) };
    },

    /** Closes a conflict a user resolved through Folio (the caller records the activity with the merge). */
    async markResolved(row: SyncConflictRow, actor: Actor, resolution: 'ours' | 'theirs' | 'content') {
      if (row.resolved_at !== null) throw conflict('This conflict is already resolved');
      await close(row, resolution, actorIdOf(actor));
    },

    /**
     * `POST /conflicts/:page_id/:timestamp/resolve`: for a conflict
     * resolved by hand (an edit or a git push), removes its artefacts and closes it.
     */
    async dismiss(actor: Actor, pageId: string, stamp: string) {
      const row = await findByArtefact(pageId, stamp);
      const { workspace } = await deps.access.require(actor, row.workspace_id, CAN.edit);
      if (row.resolved_at === null) {
        await close(row, 'manual', actorIdOf(actor));
        await recordResolved(db, actor, workspace.id, row, 'manual', deps.clock.now());
      }
      await rm(artefactDir(row), { recursive: true, force: true });
      await settleStatus(workspace.id);
      return { message: 'Conflict artefacts removed', page_id: row.page_id };
    },
  };
}

export type SyncConflicts = ReturnType<typeof createSyncConflicts>;
