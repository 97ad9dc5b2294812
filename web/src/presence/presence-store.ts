import { useSyncExternalStore } from 'react';
import type { PresentUser } from '../../../src/contract/events';
import type { EventHub } from '../live/event-hub';

export type { PresentUser };

/**
 * Who is in the workspace and on which page, kept from the socket's
 * `presence-snapshot` (sent on every subscribe, so a reconnect starts afresh)
 * and the `presence-update` / `presence-leave` events after it.
 */
export class PresenceStore {
  private users: readonly PresentUser[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(hub: EventHub) {
    hub.on((event) => {
      if (event.type === 'presence-snapshot' && event.users) this.set(event.users);
      else if (event.type === 'presence-update' && event.user_id && event.name !== undefined) {
        const user = { user_id: event.user_id, name: event.name, path: event.path ?? null };
        this.set([...this.users.filter((u) => u.user_id !== user.user_id), user]);
      } else if (event.type === 'presence-leave' && event.user_id) {
        this.set(this.users.filter((u) => u.user_id !== event.user_id));
      }
    });
  }

  private set(users: readonly PresentUser[]): void {
    this.users = users;
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): readonly PresentUser[] => this.users;
}

const stores = new WeakMap<EventHub, PresenceStore>();

/** The presence kept for a workspace's events; made once per hub, as soon as the hub is. */
export function presenceOf(hub: EventHub): PresenceStore {
  let store = stores.get(hub);
  if (!store) stores.set(hub, (store = new PresenceStore(hub)));
  return store;
}

/** The present users, re-rendering when they change. */
export function usePresentUsers(hub: EventHub): readonly PresentUser[] {
  const store = presenceOf(hub);
  return useSyncExternalStore(store.subscribe, store.snapshot);
}
