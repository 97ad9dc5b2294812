import type { FolioEvent } from '../events/types.js';

/** One present user as a `presence-snapshot` lists them. */
export interface PagePresence {
  user_id: string;
  name: string;
  /** The page the user has open, or null when none is (or their tabs are gone but the 90 s timeout runs). */
  path: string | null;
}

/**
 * Who views which page, per workspace, as the bus tells it: `presence-update`
 * sets a user's page, `presence-leave` forgets them. Fed from the bus rather
 * than from this instance's sockets, so with the Redis bus it also knows the
 * users of the other instances (those that announced a page while this
 * instance ran). A new subscriber gets it as its `presence-snapshot`.
 */
export class PageDirectory {
  private readonly byWorkspace = new Map<string, Map<string, PagePresence>>();

  /** Learns from one bus event; other event types are ignored. */
  apply(event: FolioEvent): void {
    if (event.type === 'presence-update') {
      const { workspace_id, user_id, name, path } = event.payload;
      let users = this.byWorkspace.get(workspace_id);
      if (!users) this.byWorkspace.set(workspace_id, (users = new Map()));
      users.set(user_id, { user_id, name, path });
    } else if (event.type === 'presence-leave') {
      const users = this.byWorkspace.get(event.payload.workspace_id);
      users?.delete(event.payload.user_id);
      if (users?.size === 0) this.byWorkspace.delete(event.payload.workspace_id);
    }
  }

  /** The users known to be present in a workspace, with their open page. */
  snapshot(workspaceId: string): PagePresence[] {
    return [...(this.byWorkspace.get(workspaceId)?.values() ?? [])];
  }

  /** Forgets a deleted workspace. */
  dropWorkspace(workspaceId: string): void {
    this.byWorkspace.delete(workspaceId);
  }
}

/**
 * Which page each socket of this instance shows, per workspace and user. A
 * user's page is the one their most recent `viewing` socket shows; the
 * answers say when that changed, for the hub to announce (`presence-update`,
 * path null once none of their sockets shows a page). Workspace presence,
 * with its 90 s timeout, is separate: closing a page's last tab takes the
 * user off the page at once.
 */
export class PageViews<Socket> {
  private readonly bySocket = new Map<string, Map<Socket, { path: string | null; seq: number }>>();
  private readonly announced = new Map<string, string | null>();
  private seq = 0;

  /** Records the page `socket` shows; answers the user's new page when it changed. */
  view(socket: Socket, workspaceId: string, userId: string, path: string | null) {
    const key = keyOf(workspaceId, userId);
    let sockets = this.bySocket.get(key);
    if (!sockets) this.bySocket.set(key, (sockets = new Map()));
    sockets.set(socket, { path, seq: ++this.seq });
    return this.settle(key);
  }

  /** Forgets a socket's page (it unsubscribed or closed); answers the user's new page when it changed. */
  drop(socket: Socket, workspaceId: string, userId: string) {
    const key = keyOf(workspaceId, userId);
    if (!this.bySocket.get(key)?.delete(socket)) return null;
    return this.settle(key);
  }

  private settle(key: string): { path: string | null } | null {
    const sockets = this.bySocket.get(key);
    let latest: { path: string | null; seq: number } | undefined;
    for (const view of sockets?.values() ?? []) if (!latest || view.seq > latest.seq) latest = view;
    const before = this.announced.get(key) ?? null;
    const now = latest?.path ?? null;
    if (latest) this.announced.set(key, now);
    else {
      this.bySocket.delete(key);
      this.announced.delete(key);
    }
    return before === now ? null : { path: now };
  }
}

const keyOf = (workspaceId: string, userId: string) => `${workspaceId}\u0000${userId}`;
