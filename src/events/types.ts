/**
 * Every event Folio emits, keyed by type. The first nine are the API's
 * WebSocket events and carry exactly its payload fields; two more are sent
 * over WebSocket in addition; the rest are internal.
 * Payloads are plain JSON: the Redis bus carries them to every instance.
 */
export interface EventPayloads {
  'page-created': PageChange & { title?: string };
  'page-updated': PageChange & { title?: string };
  'page-deleted': PageChange;
  'page-moved': { workspace_id: string; old_path: string; new_path: string } & PageChangeBy;
  'presence-join': { workspace_id: string; user_id: string };
  'presence-leave': { workspace_id: string; user_id: string };
  'sync-status': { workspace_id: string; status: string };
  'conflict-detected': { workspace_id: string; path: string };
  'bulk-sync': { workspace_id: string; changed_count: number; paths: string[] };
  /**
   * Additive to the documented events (sent over WebSocket): the page a present user has
   * open changed; `path` null when they have none open any more.
   */
  'presence-update': { workspace_id: string; user_id: string; name: string; path: string | null };
  /**
   * Additive to the documented events (sent over WebSocket): a comment on the page at
   * `path` was added, edited, deleted, resolved or reopened.
   */
  'comment-changed': {
    workspace_id: string;
    path: string;
    comment_id: string;
    actor: string | null;
    change: 'created' | 'updated' | 'deleted' | 'resolved' | 'reopened';
  };
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
  /** Additive (sent over WebSocket): change request `number` was opened. */
  'change-request-opened': { workspace_id: string; number: number; title: string; actor: string | null };
  /** Additive (sent over WebSocket): a review of change request `number` was given. */
  'change-request-reviewed': {
    workspace_id: string;
    number: number;
    verdict: 'approve' | 'request_changes' | 'comment';
    actor: string | null;
  };
  /** Additive (sent over WebSocket): change request `number` was merged (actor null: on the git host). */
  'change-request-merged': { workspace_id: string; number: number; commit: string; actor: string | null };
  /** Additive (sent over WebSocket): change request `number` was closed without merging. */
  'change-request-closed': { workspace_id: string; number: number; actor: string | null };
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
