import type { Redis } from 'ioredis';
import { type EventBus, InProcessBus, notify, type Unsubscribe } from './bus.js';
import type { EventOf, EventPayloads, EventType, FolioEvent } from './types.js';

const CHANNEL = 'folio:events';

/**
 * Carries events between instances through Redis pub/sub. Every instance,
 * the emitter included, delivers what arrives on the channel to its own
 * listeners, so a listener sees each event once wherever it was emitted.
 */
export class RedisBus implements EventBus {
  private readonly local: InProcessBus;
  /** Listeners of this instance's own emits (`onLocal`), called as they are emitted. */
  private readonly own = new Set<(event: FolioEvent) => void>();
  /** Handlers of the side channels opened with `sideChannel`, by channel name. */
  private readonly sides = new Map<string, (message: string) => void>();

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly onListenerError: (error: unknown, event?: FolioEvent) => void,
  ) {
    this.local = new InProcessBus(onListenerError);
    subscriber.on('message', (channel: string, message: string) => {
      const side = this.sides.get(channel);
      if (side) return side(message);
      if (channel !== CHANNEL) return;
      try {
        this.local.deliver(JSON.parse(message) as FolioEvent);
      } catch (error) {
        onListenerError(error);
      }
    });
  }

  /** Connects a dedicated subscriber connection (a subscribed client can do nothing else). */
  static async connect(
    publisher: Redis,
    onListenerError: (error: unknown, event?: FolioEvent) => void = () => {},
  ): Promise<RedisBus> {
    const subscriber = publisher.duplicate();
    await subscriber.subscribe(CHANNEL);
    return new RedisBus(publisher, subscriber, onListenerError);
  }

  emit<K extends EventType>(type: K, payload: EventPayloads[K]): void {
    const event = { type, payload, at: new Date().toISOString() } as FolioEvent;
    notify(this.own, event, this.onListenerError);
    void this.publisher.publish(CHANNEL, JSON.stringify(event)).catch(() => undefined);
  }

  on<K extends EventType>(type: K, listener: (event: EventOf<K>) => void): Unsubscribe {
    return this.local.on(type, listener);
  }

  onAny(listener: (event: FolioEvent) => void): Unsubscribe {
    return this.local.onAny(listener);
  }

  onLocal(listener: (event: FolioEvent) => void): Unsubscribe {
    this.own.add(listener);
    return () => this.own.delete(listener);
  }

  /**
   * Opens another channel on this bus's connections: what is published there
   * reaches every instance in the order it was published relative to the
   * events, because one connection publishes both and one receives both.
   * Co-editing relies on that order (a save's notice after its updates, and
   * around its `page-updated`). Answers the function that publishes on it.
   */
  async sideChannel(name: string, onMessage: (message: string) => void): Promise<(message: string) => void> {
    this.sides.set(name, onMessage);
    await this.subscriber.subscribe(name);
    return (message) => void this.publisher.publish(name, message).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.sides.clear();
    this.own.clear();
    await this.local.close();
    this.subscriber.disconnect();
  }
}
