import type { EventOf, EventPayloads, EventType, FolioEvent } from './types.js';

export type Unsubscribe = () => void;

/**
 * Services emit after their transaction commits; listeners (WebSocket, search,
 * activity, git) subscribe. An implementation may carry events between
 * instances (Redis) without its callers changing.
 */
export interface EventBus {
  emit<K extends EventType>(type: K, payload: EventPayloads[K]): void;
  on<K extends EventType>(type: K, listener: (event: EventOf<K>) => void): Unsubscribe;
  onAny(listener: (event: FolioEvent) => void): Unsubscribe;
  close(): Promise<void>;
}

type Listener = (event: FolioEvent) => void;

/**
 * Delivers to the listeners of this process. A listener that throws is
 * reported and does not stop the others or the emitter.
 */
export class InProcessBus implements EventBus {
  private readonly byType = new Map<EventType, Set<Listener>>();
  private readonly any = new Set<Listener>();

  constructor(private readonly onListenerError: (error: unknown, event?: FolioEvent) => void = () => {}) {}

  emit<K extends EventType>(type: K, payload: EventPayloads[K]): void {
    this.deliver({ type, payload, at: new Date().toISOString() } as FolioEvent);
  }

  /** Delivers an already-stamped event (used by buses that relay from elsewhere). */
  deliver(event: FolioEvent): void {
    for (const listener of [...(this.byType.get(event.type) ?? []), ...this.any]) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error, event);
      }
    }
  }

  on<K extends EventType>(type: K, listener: (event: EventOf<K>) => void): Unsubscribe {
    const set = this.byType.get(type) ?? new Set<Listener>();
    this.byType.set(type, set);
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  onAny(listener: Listener): Unsubscribe {
    this.any.add(listener);
    return () => this.any.delete(listener);
  }

  async close(): Promise<void> {
    this.byType.clear();
    this.any.clear();
  }
}
