import { createContext, useContext, useEffect, useState } from 'react';
import { api } from '../api/client';
import { presenceOf } from '../presence/presence-store';
import { EventHub, type ServerEvent } from './event-hub';

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
          if ('workspace_id' in event && event.workspace_id === workspaceId) hub.emit(event);
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
