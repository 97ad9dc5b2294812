import type { WorkspaceEventPayloads } from '../contract/events.js';

/**
 * Every event Folio emits, keyed by type: the workspace events WebSocket clients see
 * (src/contract/events.ts), and the internal ones below, which never leave the server.
 * Page events also carry the internal fields of `PageChangeBy` and `title`, which the hub
 * leaves out of what it sends (INTERNAL_PAGE_FIELDS).
 * Payloads are plain JSON: the Redis bus carries them to every instance.
 */
export interface EventPayloads extends WorkspaceEventPayloads {
  'page-created': PageChange & { title?: string };
  'page-updated': PageChange & { title?: string };
  'page-deleted': PageChange;
  'page-moved': WorkspaceEventPayloads['page-moved'] & PageChangeBy;
  /** Internal (not sent over WebSocket): a file was stored under uploads/; git auto-commit listens. */
  'upload-created': { workspace_id: string; path: string; actor: string | null };
  /**
   * Internal (not sent over WebSocket): reconciliation wrote page ids into the files at
   * `paths`, which lacked one; git auto-commit listens.
   */
  'ids-written': { workspace_id: string; paths: string[] };
  /** Internal (not sent over WebSocket): a member was removed; the hub drops their subscriptions. */
  'member-removed': { workspace_id: string; user_id: string; actor: string | null };
  /** Internal: a workspace's settings were written; the published site drops what it cached. */
  'settings-changed': { workspace_id: string };
  /** Internal: a documentation version was made or removed; the published site looks again. */
  'versions-changed': { workspace_id: string; change: 'created' | 'deleted'; slug: string; name: string };
  /** Internal: a sync with the remote went through (outbound webhooks listen). */
  'sync-completed': {
    workspace_id: string;
    trigger: string;
    changes: { added: number; updated: number; deleted: number };
  };
  /** Internal: "Publish everything" published the workspace's drafts. */
  'workspace-published': { workspace_id: string; published: number; actor: string | null };
  /** Internal: web edits were committed to the workspace's repository; the sync engine pushes them. */
  'commits-made': { workspace_id: string };
}

/**
 * Who made a page change. `actor` goes out over WebSocket; `author` (internal, never sent over
 * WebSocket) is how the change's git commit names them, so the commit needs no lookup.
 * A writer that does not know it leaves it out.
 */
export interface PageChangeBy {
  actor: string | null;
  author?: { name: string; email: string };
}

/**
 * A page written or deleted at `path`. `title` (internal, on creates and updates) is the
 * page's title after the write, for its commit message.
 */
export type PageChange = { workspace_id: string; path: string } & PageChangeBy;

/** The payload fields of page events that are Folio's own, left out of what WebSocket sends. */
export const INTERNAL_PAGE_FIELDS = ['author', 'title'] as const;

export type EventType = keyof EventPayloads;

export type FolioEvent = {
  [K in EventType]: { type: K; payload: EventPayloads[K]; at: string };
}[EventType];

export type EventOf<K extends EventType> = Extract<FolioEvent, { type: K }>;
