import { createContext, useContext, useEffect, useState } from 'react';
import { api } from '../api/client';
import { presenceOf } from '../presence/presence-store';

/** A server event (the documented ones or Folio's additive ones), as the WebSocket sends it. */
export interface ServerEvent {
  type: string;
  workspace_id?: string;
  /** A page's path; null in `presence-update` when the user has no page open. */
  path?: string | null;
  old_path?: string;
  new_path?: string;
  actor?: string;
  user_id?: string;
  /** `sync-status`: the workspace's sync status now. */
  status?: string;
  /** `presence-update`: the user's display name. */
  name?: string;
  /** `presence-snapshot`: who is present and which page they have open. */
  users?: { user_id: string; name: string; path: string | null }[];
}

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

export const EventsContext = createContext<EventHub>(new EventHub());

/** The events of the open workspace; see `useWorkspaceSocket`. */
export const useEvents = (): EventHub => useContext(EventsContext);

/**
 * Keeps one WebSocket subscribed to the workspace while the screen is open:
 * fetches the `svc_ws_token` cookie, connects to `/ws`, subscribes, and
 * reconnects when the connection drops (soon at first, then with growing pauses).
 */
export function useWorkspaceSocket(workspaceId: string | undefined): EventHub {
  // Presence listens from the start: the snapshot arrives right after subscribing.
  const [hub] = useState(() => {
    const created = new EventHub();
    presenceOf(created);
    return created;
  });
  useEffect(() => {
    if (!workspaceId) return;
    let socket: WebSocket | null = null;
    let stopped = false;
    let retry = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const connect = async () => {
      try {
        await api('POST', '/api/auth/ws-token');
      } catch {
        return schedule();
      }
      if (stopped) return;
      const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
      socket = new WebSocket(`${scheme}//${location.host}/ws`);
      socket.onopen = () => {
        retry = 0;
        const open = socket;
        open?.send(JSON.stringify({ type: 'subscribe', workspace_id: workspaceId }));
        hub.connected((text) => open?.send(text), workspaceId);
      };
      socket.onmessage = (message) => {
        try {
          const event = JSON.parse(String(message.data)) as ServerEvent;
          if (event.workspace_id === workspaceId) hub.emit(event);
        } catch {
          // Not JSON: nothing the app understands.
        }
      };
      socket.onclose = () => {
        socket = null;
        hub.connected(null);
        if (!stopped) schedule();
      };
    };
    const schedule = () => {
      retry += 1;
      // Every second or so for the first ten tries (a restarting server is back within
      // seconds, and co-editing waits for it), then doubling up to 30 s. The jitter keeps a
      // restarted server from being asked by every open tab in the same instant.
      const pause = retry <= 10 ? 1000 : Math.min(30_000, 1000 * 2 ** (retry - 10));
      timer = setTimeout(() => void connect(), pause * (0.75 + Math.random() / 2));
    };
    void connect();
    return () => {
      stopped = true;
      hub.connected(null);
      clearTimeout(timer);
      socket?.close();
    };
  }, [workspaceId, hub]);
  return hub;
}
