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
