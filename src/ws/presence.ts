/** A user leaves 90 seconds after their last heartbeat. */
export const PRESENCE_TIMEOUT_MS = 90_000;

interface Entry {
  workspaceId: string;
  userId: string;
  lastSeen: number;
}

const keyOf = (workspaceId: string, userId: string) => `${workspaceId}\u0000${userId}`;

/**
 * Who is present in which workspace, per user rather than per socket: a
 * second tab does not join again, and closing one tab does not leave while
 * another still beats. An entry outlives its sockets until the timeout, so a
 * reconnect within 90 seconds is no leave-and-join. Pure bookkeeping: the hub
 * decides when to sweep and turns the answers into events.
 */
export class PresenceTracker {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly timeoutMs = PRESENCE_TIMEOUT_MS) {}

  /** Records a heartbeat; true when the user was not present before (a join). */
  touch(workspaceId: string, userId: string, now: number): boolean {
    const key = keyOf(workspaceId, userId);
    const entry = this.entries.get(key);
    if (entry) {
      entry.lastSeen = Math.max(entry.lastSeen, now);
      return false;
    }
    this.entries.set(key, { workspaceId, userId, lastSeen: now });
    return true;
  }

  /** Removes and answers the entries whose last heartbeat is at least the timeout ago. */
  expire(now: number): Array<{ workspaceId: string; userId: string }> {
    const gone: Array<{ workspaceId: string; userId: string }> = [];
    for (const [key, entry] of this.entries) {
      if (now - entry.lastSeen >= this.timeoutMs) {
        this.entries.delete(key);
        gone.push({ workspaceId: entry.workspaceId, userId: entry.userId });
      }
    }
    return gone;
  }

  /** Forgets one user in one workspace at once (they lost access); true when they were present. */
  leave(workspaceId: string, userId: string): boolean {
    return this.entries.delete(keyOf(workspaceId, userId));
  }

  /** Forgets a workspace without leave events (it was deleted). */
  dropWorkspace(workspaceId: string): void {
    for (const [key, entry] of this.entries) if (entry.workspaceId === workspaceId) this.entries.delete(key);
  }

  /** The users present in a workspace on this instance. */
  usersIn(workspaceId: string): string[] {
    return [...this.entries.values()].filter((e) => e.workspaceId === workspaceId).map((e) => e.userId);
  }

  get size(): number {
    return this.entries.size;
  }
}
