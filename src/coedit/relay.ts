import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RedisBus } from '../events/redis-bus.js';

const CHANNEL = 'folio:coedit';
/** How long a holder mark outlives an instance that died without taking it back. */
const HOLDER_TTL_S = 3600;

/** What instances tell each other about the rooms they hold (bytes as base64). */
export type RelayMessage =
  /** A Yjs update applied to the room on the sending instance. */
  | { kind: 'update'; epoch: string; update: string }
  /** Cursors and selections of the sender's sockets. */
  | { kind: 'awareness'; update: string }
  /** The sender is opening the room and asks its holders for their state. */
  | { kind: 'sync-request'; id: string }
  /** A holder's answer to `sync-request` `id`. */
  | { kind: 'sync-state'; id: string; epoch: string; state: string; raw: string; hash: string }
  /** The sender is about to save the room's text (its `page-updated` follows). */
  | { kind: 'saving' }
  /** The sender's save ended: the page body and hash it wrote, or null when it wrote nothing. */
  | { kind: 'saved'; raw: string | null; hash: string | null }
  /** The sender brought an outside change into the room (its updates went first): the new base. */
  | { kind: 'based'; raw: string; hash: string }
  /** The sender found an outside change overlapping unsaved edits: the room stops saving everywhere. */
  | { kind: 'conflict'; hash: string };

/** A relay message as it travels: which room, from which instance. */
export type RelayEnvelope = RelayMessage & { from: string; workspace_id: string; path: string };

/**
 * Carries co-editing rooms across instances: every instance keeps its own
 * Yjs document per open page and relays what changes it, tagged with its id
 * so it ignores its own messages. Holders are counted in Redis so an opening
 * room knows whether to wait for someone's state.
 */
export interface RoomRelay {
  readonly instanceId: string;
  publish(workspaceId: string, path: string, message: RelayMessage): void;
  /** Whether another instance holds the room of this page. */
  othersHold(workspaceId: string, path: string): Promise<boolean>;
  /** Claims bringing the outside change from base `from` to `to` into the room; one instance wins. */
  claimMerge(workspaceId: string, path: string, from: string, to: string): Promise<boolean>;
  /** Marks (or unmarks) this instance as holding the room. */
  hold(workspaceId: string, path: string, held: boolean): Promise<void>;
}

const holdersKey = (workspaceId: string, path: string) => `folio:coedit:holders:${workspaceId}:${path}`;

/**
 * The Redis relay: a side channel of the event bus (so its messages keep
 * their order with the events) and a set of holders per room.
 */
export async function createRedisRoomRelay(
  redis: Redis,
  bus: RedisBus,
  onMessage: (message: RelayEnvelope) => void,
): Promise<RoomRelay> {
  const instanceId = randomUUID();
  const publish = await bus.sideChannel(CHANNEL, (text) => {
    let message: RelayEnvelope;
    try {
      message = JSON.parse(text) as RelayEnvelope;
    } catch {
      return;
    }
    if (message.from !== instanceId) onMessage(message);
  });
  return {
    instanceId,
    publish(workspaceId, path, message) {
      publish(JSON.stringify({ ...message, from: instanceId, workspace_id: workspaceId, path }));
    },
    async othersHold(workspaceId, path) {
      const holders = await redis.smembers(holdersKey(workspaceId, path));
      return holders.some((id) => id !== instanceId);
    },
    async claimMerge(workspaceId, path, from, to) {
      // Short-lived: the holders look within moments of the same event, and a page may come back to a text.
      const key = `folio:coedit:merge:${workspaceId}:${path}:${from}:${to}`;
      return (await redis.set(key, instanceId, 'EX', 30, 'NX')) === 'OK';
    },
    async hold(workspaceId, path, held) {
      const key = holdersKey(workspaceId, path);
      if (held) await redis.multi().sadd(key, instanceId).expire(key, HOLDER_TTL_S).exec();
      else await redis.srem(key, instanceId);
    },
  };
}
