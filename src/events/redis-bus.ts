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

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly onListenerError: (error: unknown, event?: FolioEvent) => void,
  ) {
    this.local = new InProcessBus(onListenerError);
    subscriber.on('message', (channel: string, message: string) => {
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

  async close(): Promise<void> {
    this.own.clear();
    await this.local.close();
    this.subscriber.disconnect();
  }
}
