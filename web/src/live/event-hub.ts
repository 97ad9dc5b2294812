import type { ServerMessage } from '../../../src/contract/events';

/** What the WebSocket sends: a workspace event, the hub's answer or a co-editing message. */
export type ServerEvent = ServerMessage;

type Listener = (event: ServerEvent) => void;

/** Fan-out of one workspace's events to the screens that care. */
export class EventHub {
  private readonly listeners = new Set<Listener>();
  private viewingPath: string | null = null;
  private sender: ((text: string) => void) | null = null;
  private flushQueued = false;

  /**
   * Tells the server which page this tab shows (null: none), for presence per
   * page. Calls within one task are coalesced, so switching pages sends the
   * new page only; the socket repeats it after each reconnect.
   */
  view(path: string | null): void {
    this.viewingPath = path;
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      this.sendViewing();
    });
  }

  /** Called by the socket: how to send to the server (null while disconnected). */
  connected(sender: ((text: string) => void) | null, workspaceId?: string): void {
    this.sender = sender;
    this.workspaceId = workspaceId;
    this.sendViewing();
    for (const listener of this.connectionListeners) listener(sender !== null);
  }

  private workspaceId: string | undefined;
  private readonly connectionListeners = new Set<(connected: boolean) => void>();

  /** Sends a message on the socket; false while disconnected (the caller resends on reconnect). */
  send(message: Record<string, unknown>): boolean {
    if (!this.sender) return false;
    this.sender(JSON.stringify(message));
    return true;
  }

  /** Hears each connect and disconnect (co-editing joins its room again on reconnect). */
  onConnection(listener: (connected: boolean) => void): () => void {
    this.connectionListeners.add(listener);
    if (this.sender) listener(true);
    return () => this.connectionListeners.delete(listener);
  }

  private sendViewing(): void {
    if (!this.sender || !this.workspaceId) return;
    this.sender(JSON.stringify({ type: 'viewing', workspace_id: this.workspaceId, path: this.viewingPath }));
  }

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(event: ServerEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
