import { monotonicFactory } from 'ulid';
import { z } from 'zod';
import { type Actor, isSystem } from '../domain/actor.js';
import { normalizePagePath } from '../domain/paths.js';
import { CAN } from '../domain/policy.js';
import type { Store } from '../store/database.js';
import * as activityTable from '../store/repositories/activity.js';
import * as pagesTable from '../store/repositories/pages.js';
import type { Queryable } from '../store/repositories/queryable.js';
import type { ActivityRow } from '../store/schema.js';
import type { AccessService } from './access.js';

/**
 * The API's actions that exist so far; later features (comments,
 * sync, members, versions) add theirs with `record`.
 */
export type ActivityAction =
  | 'page_created'
  | 'page_updated'
  | 'page_deleted'
  | 'page_moved'
  | 'pages_reordered'
  | 'workspace_created'
  | 'workspace_deleted'
  | (string & {});

export interface ActivityEntry {
  workspaceId: string;
  action: ActivityAction;
  path?: string | null;
  pageId?: string | null;
  /** The user who acted; null for the system, the CLI and changes found on disk. */
  actorId: string | null;
  details?: Record<string, unknown>;
  /** ISO timestamp of the change. */
  at: string;
}

export interface ActivityRecord {
  id: string;
  action: string;
  path: string | null;
  page_id: string | null;
  /** The acting user's id, or null (system, disk, git). */
  actor: string | null;
  actor_name: string | null;
  details: Record<string, unknown>;
  created_at: string;
}

// Monotonic so that entries written within one millisecond still list in write order.
const nextId = monotonicFactory();

/** The user id an activity row or event names for `actor`; null for the system actor. */
export const actorIdOf = (actor: Actor): string | null => (isSystem(actor) ? null : actor.userId);

const activityRow = (entry: ActivityEntry): ActivityRow => ({
  id: nextId(),
  workspace_id: entry.workspaceId,
  action: entry.action,
  path: entry.path ?? null,
  page_id: entry.pageId ?? null,
  actor_id: entry.actorId,
  details: JSON.stringify(entry.details ?? {}),
  created_at: entry.at,
});

/**
 * Writes one activity row inside the caller's transaction, so the feed changes
 * exactly when the change it describes commits. Returns the row id.
 */
export async function record(trx: Queryable, entry: ActivityEntry): Promise<string> {
  const row = activityRow(entry);
  await activityTable.insertActivity(trx, row);
  return row.id;
}

/** `record` for many entries (a sync's changes), a batch per statement; ids follow the entries' order. */
export async function recordMany(trx: Queryable, entries: readonly ActivityEntry[]): Promise<void> {
  await activityTable.insertActivities(trx, entries.map(activityRow));
}

const ULID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;

const pageSize = z.coerce
  .number()
  .int('limit must be a whole number')
  .min(1)
  .max(100)
  .default(20)
  .describe('Most entries to return (default 20).');
const cursor = z
  .string()
  .regex(ULID_RE, 'cursor is not one this API gave out')
  .optional()
  .describe('next_cursor from a previous call, for the next page.');

export const listActivityInput = z.object({
  limit: pageSize,
  cursor,
  /** One action or several, comma-separated. */
  action: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .optional()
    .describe('Only this action, or several comma-separated.'),
  actor: z.string().trim().min(1).max(100).optional().describe('Only what this user did: their user id.'),
});

export const pageActivityInput = z.object({
  page: z.string({ error: 'page is required' }).min(1, 'page is required'),
  limit: pageSize,
  cursor,
});

/** The activity feed of a workspace and of one page (readable by anyone who can read the workspace). */
export function createActivity(deps: { store: Store; access: AccessService }) {
  const db = deps.store.db;

  async function page(
    workspaceId: string,
    filter: activityTable.ActivityFilter,
    limit: number,
    before?: string,
  ): Promise<{ data: ActivityRecord[]; next_cursor: string | null }> {
    // One more than asked tells whether older entries remain.
    const rows = await activityTable.listActivity(db, workspaceId, filter, { before, limit: limit + 1 });
    const more = rows.length > limit;
    const data = rows.slice(0, limit).map(present);
    return { data, next_cursor: more ? (data[data.length - 1]?.id ?? null) : null };
  }

  return {
    /** Newest first; `next_cursor` is the last id shown while older entries remain. */
    async list(actor: Actor, workspace: string, input: z.infer<typeof listActivityInput>) {
      const { workspace: ws } = await deps.access.require(actor, workspace, CAN.read);
      const actions = input.action
        ?.split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      const filter = { ...(actions ? { actions } : {}), ...(input.actor ? { actorId: input.actor } : {}) };
      return page(ws.id, filter, input.limit, input.cursor);
    },

    /**
     * The history of the page now at (or once at) `page`: followed by page_id
     * across moves; a deleted page's history is found by its last path.
     */
    async forPage(actor: Actor, workspace: string, input: z.infer<typeof pageActivityInput>) {
      const { workspace: ws } = await deps.access.require(actor, workspace, CAN.read);
      const path = normalizePagePath(input.page);
      const current = await pagesTable.findByPath(db, ws.id, path);
      const pageId = current ? current.id : await activityTable.findPageIdOnceAt(db, ws.id, path);
      return page(ws.id, pageId ? { pageId } : { path }, input.limit, input.cursor);
    },
  };
}

function present(row: activityTable.ActivityWithActorName): ActivityRecord {
  let details: Record<string, unknown> = {};
  try {
    details = JSON.parse(row.details) as Record<string, unknown>;
  } catch {
    // A row written by hand or by an older version: show it without details.
  }
  return {
    id: row.id,
    action: row.action,
    path: row.path,
    page_id: row.page_id,
    actor: row.actor_id,
    actor_name: row.actor_name,
    details,
    created_at: row.created_at,
  };
}
