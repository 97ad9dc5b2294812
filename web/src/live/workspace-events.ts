import { createContext, useContext, useEffect, useState } from 'react';
import { api } from '../api/client';

/** A server event of SPEC.md 6.2, as the WebSocket sends it. */
export interface ServerEvent {
  type: string;
  workspace_id?: string;
  path?: string;
  old_path?: string;
  new_path?: string;
  actor?: string;
  user_id?: string;
}

type Listener = (event: ServerEvent) => void;

/** Fan-out of one workspace's events to the screens that care. */
export class EventHub {
  private readonly listeners = new Set<Listener>();
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
 * reconnects with growing pauses when the connection drops.
 */
export function useWorkspaceSocket(workspaceId: string | undefined): EventHub {
  const [hub] = useState(() => new EventHub());
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
        socket?.send(JSON.stringify({ type: 'subscribe', workspace_id: workspaceId }));
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
        if (!stopped) schedule();
      };
    };
    const schedule = () => {
      retry += 1;
      timer = setTimeout(() => void connect(), Math.min(30_000, 1000 * 2 ** retry));
    };
    void connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      socket?.close();
    };
  }, [workspaceId, hub]);
  return hub;
}
