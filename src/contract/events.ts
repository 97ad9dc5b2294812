/**
 * What the WebSocket at `/ws` sends a subscribed browser: the workspace events (the bus
 * events a client may see, as `{ type, ...payload, at }`) and the hub's own answers. The
 * server's event bus and hub and the web app's event hub share these types, so an event's
 * fields are named once. Types only: no code of this file reaches the browser.
 */

/** The payload of each workspace event a WebSocket client sees, keyed by its type. */
export interface WorkspaceEventPayloads {
  'page-created': { workspace_id: string; path: string; actor: string | null };
  'page-updated': { workspace_id: string; path: string; actor: string | null };
  'page-deleted': { workspace_id: string; path: string; actor: string | null };
  'page-moved': { workspace_id: string; old_path: string; new_path: string; actor: string | null };
  'presence-join': { workspace_id: string; user_id: string };
  'presence-leave': { workspace_id: string; user_id: string };
  'sync-status': { workspace_id: string; status: string };
  'conflict-detected': { workspace_id: string; path: string };
  'bulk-sync': { workspace_id: string; changed_count: number; paths: string[] };
  /** The page a present user has open changed; `path` null when they have none open any more. */
  'presence-update': { workspace_id: string; user_id: string; name: string; path: string | null };
  /** A comment on the page at `path` was added, edited, deleted, resolved or reopened. */
  'comment-changed': {
    workspace_id: string;
    path: string;
    comment_id: string;
    actor: string | null;
    change: 'created' | 'updated' | 'deleted' | 'resolved' | 'reopened';
  };
  /** Change request `number` was opened. */
  'change-request-opened': { workspace_id: string; number: number; title: string; actor: string | null };
  /** A review of change request `number` was given. */
  'change-request-reviewed': {
    workspace_id: string;
    number: number;
    verdict: 'approve' | 'request_changes' | 'comment';
    actor: string | null;
  };
  /** Change request `number` was merged (actor null: on the git host). */
  'change-request-merged': { workspace_id: string; number: number; commit: string; actor: string | null };
  /** Change request `number` was closed without merging. */
  'change-request-closed': { workspace_id: string; number: number; actor: string | null };
}

export type WorkspaceEventType = keyof WorkspaceEventPayloads;

/** A workspace event as the socket sends it: its type, its payload's fields and when it happened. */
export type WorkspaceEvent = {
  [K in WorkspaceEventType]: { type: K; at: string } & WorkspaceEventPayloads[K];
}[WorkspaceEventType];

/** One present user as `presence-snapshot` lists them; `path` null when they have no page open. */
export interface PresentUser {
  user_id: string;
  name: string;
  path: string | null;
}

/** The hub's answers to a client's own messages (subscribe, unsubscribe, ping) and its errors. */
export type HubMessage =
  | { type: 'subscribed'; workspace_id: string }
  | {
      type: 'unsubscribed';
      workspace_id: string;
      /** Absent when the client asked; otherwise why the hub unsubscribed it. */
      reason?: 'access_revoked' | 'workspace_deleted';
    }
  /** Sent right after `subscribed`: who is present and on which page. */
  | { type: 'presence-snapshot'; workspace_id: string; users: PresentUser[]; at: string }
  | { type: 'pong' }
  /** `path`: the page of the co-editing message refused. */
  | { type: 'error'; error: string; message: string; workspace_id?: string; path?: string };

/**
 * A co-editing message (`yjs-joined`, `yjs-update`, `yjs-saved`, …) for the page at `path`;
 * the co-editing client reads the rest of its fields.
 */
export interface CoeditMessage {
  type: `yjs-${string}`;
  workspace_id: string;
  path: string;
  [field: string]: unknown;
}

/** Everything the WebSocket sends, told apart by `type`. */
export type ServerMessage = WorkspaceEvent | HubMessage | CoeditMessage;
