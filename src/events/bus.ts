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
  /**
   * Hears only the events emitted by this instance, never those relayed from others: for
   * work that must happen once per event however many instances run (queueing an outbound
   * webhook, counting a metric).
   */
  onLocal(listener: (event: FolioEvent) => void): Unsubscribe;
  close(): Promise<void>;
}

type Listener = (event: FolioEvent) => void;

/** Calls each listener; one that throws is reported and does not stop the others. */
export function notify(
  listeners: Iterable<Listener>,
  event: FolioEvent,
  onListenerError: (error: unknown, event?: FolioEvent) => void,
): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (error) {
      onListenerError(error, event);
    }
  }
}

/**
 * Delivers to the listeners of this process. A listener that throws is
 * reported and does not stop the others or the emitter.
 */
export class InProcessBus implements EventBus {
  private readonly byType = new Map<EventType, Set<Listener>>();
  private readonly any = new Set<Listener>();
  private readonly local = new Set<Listener>();

  constructor(private readonly onListenerError: (error: unknown, event?: FolioEvent) => void = () => {}) {}

  emit<K extends EventType>(type: K, payload: EventPayloads[K]): void {
    const event = { type, payload, at: new Date().toISOString() } as FolioEvent;
    notify(this.local, event, this.onListenerError);
    this.deliver(event);
  }

  /** Delivers an already-stamped event (used by buses that relay from elsewhere). */
  deliver(event: FolioEvent): void {
    notify([...(this.byType.get(event.type) ?? []), ...this.any], event, this.onListenerError);
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

  onLocal(listener: Listener): Unsubscribe {
    this.local.add(listener);
    return () => this.local.delete(listener);
  }

  async close(): Promise<void> {
    this.byType.clear();
    this.any.clear();
    this.local.clear();
  }
}
