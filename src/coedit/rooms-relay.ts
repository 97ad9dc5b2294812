import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';
import { encode, type Room } from './room.js';
import { roomBase } from './room-text.js';
import type { RelayEnvelope, RoomRelay } from './relay.js';

/** How long an opening room waits for another instance's state before seeding itself. */
const SYNC_WAIT_MS = 1500;
/** A save announced by an instance that never said it ended (it died) stops counting after this. */
const SAVE_NOTICE_MS = 30_000;

const bytes = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));

/** What the relay needs of the rooms of this instance. */
export interface RelayedRooms {
  /** The open room of a page on this instance, if any (waits for one being opened). */
  roomAt(workspaceId: string, path: string): Promise<Room | undefined>;
  schedule(room: Room): void;
  /** Runs work in the room's queue, after its saves and outside changes. */
  serial<T>(room: Room, work: () => Promise<T>): Promise<T>;
  checkOutsideNow(room: Room): Promise<void>;
  /** Stops the room's saving and shows the merge view (an outside change overlapped). */
  stopOnConflict(room: Room, hash: string): void;
  logger: Logger;
}

/** A room's state as another instance holds it, to open the same room here. */
export interface HeldState {
  epoch: string;
  state: Uint8Array;
  raw: string;
  hash: string;
}

/**
 * The co-editing side of the relay: what a room on this instance does with
 * what other instances say about it, and how an opening room gets the state
 * of one already open elsewhere (never re-seeding beside it, which could
 * hold the text twice).
 */
export function createRoomsRelay(relay: RoomRelay, rooms: RelayedRooms) {
  const waiting = new Map<string, (state: HeldState) => void>();

  /** Relays a room's own changes and marks this instance as holding it. */
  async function attach(room: Room): Promise<void> {
    room.share = ({ kind, update }) =>
      relay.publish(
        room.workspaceId,
        room.path,
        kind === 'update'
          ? { kind, epoch: room.epoch, update: encode(update) }
          : { kind, update: encode(update) },
      );
    await relay.hold(room.workspaceId, room.path, true);
  }

  /** Saved notices adopt the saver's file as the base: its text is in this room already. */
  async function ended(room: Room, from: string, raw: string | null, hash: string | null): Promise<void> {
    clearTimeout(room.remoteSaves.get(from));
    room.remoteSaves.delete(from);
    if (raw !== null && hash !== null && hash !== room.base.hash) {
      room.base = roomBase(raw, hash);
      // A writer elsewhere resolved the conflict: that save is the page again.
      room.conflict = false;
      // This instance's sockets see the save as if their own room had made it.
      room.broadcast({ type: 'yjs-saved', content_hash: hash, saved_text: room.base.doc });
    }
    if (room.remoteSaving === 0 && room.outsidePending) {
      room.outsidePending = false;
      await rooms.checkOutsideNow(room);
    }
    if (room.unsaved) rooms.schedule(room);
  }

  async function receive(m: RelayEnvelope): Promise<void> {
    if (m.kind === 'sync-state') return waiting.get(m.id)?.({ ...m, state: bytes(m.state) });
    const room = await rooms.roomAt(m.workspace_id, m.path);
    if (!room || room.closed) return;
    switch (m.kind) {
      case 'sync-request':
        return relay.publish(room.workspaceId, room.path, {
          kind: 'sync-state',
          id: m.id,
          epoch: room.epoch,
          state: encode(room.stateUpdate()),
          raw: room.base.raw,
          hash: room.base.hash,
        });
      case 'update':
        // Another lineage of the page (an older epoch) would merge its text in twice.
        if (m.epoch === room.epoch && room.applyRelayed(bytes(m.update))) rooms.schedule(room);
        return;
      case 'awareness':
        return room.applyRelayedAwareness(bytes(m.update));
      case 'saving': {
        clearTimeout(room.remoteSaves.get(m.from));
        const timer = setTimeout(
          () => void rooms.serial(room, () => ended(room, m.from, null, null)).catch(() => undefined),
          SAVE_NOTICE_MS,
        );
        timer.unref();
        room.remoteSaves.set(m.from, timer);
        return;
      }
      case 'saved':
        return rooms.serial(room, () => ended(room, m.from, m.raw, m.hash));
      case 'conflict':
        return rooms.serial(room, async () => rooms.stopOnConflict(room, m.hash));
      case 'based':
        return rooms.serial(room, async () => {
          if (m.hash === room.base.hash) return;
          room.base = roomBase(m.raw, m.hash);
          room.broadcast({ type: 'yjs-saved', content_hash: m.hash, saved_text: room.base.doc });
        });
    }
  }

  return {
    attach,

    /** Handles one message from another instance. */
    receive(message: RelayEnvelope): void {
      receive(message).catch((error: unknown) =>
        rooms.logger.warn({ err: error }, 'a relayed co-editing message failed'),
      );
    },

    /** The state of the room as another instance holds it, or null when none answers in time. */
    async heldElsewhere(workspaceId: string, path: string): Promise<HeldState | null> {
      if (!(await relay.othersHold(workspaceId, path))) return null;
      const id = randomUUID();
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(null);
        }, SYNC_WAIT_MS);
        waiting.set(id, (state) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(state);
        });
        relay.publish(workspaceId, path, { kind: 'sync-request', id });
      });
    },

    /** Tells the others a save begins / ended (its raw body and hash, or nulls when nothing was written). */
    saving(room: Room): void {
      relay.publish(room.workspaceId, room.path, { kind: 'saving' });
    },
    saved(room: Room, raw: string | null, hash: string | null): void {
      relay.publish(room.workspaceId, room.path, { kind: 'saved', raw, hash });
    },
    /** Tells the others this instance brought an outside change in: their base is the file now. */
    based(room: Room): void {
      relay.publish(room.workspaceId, room.path, { kind: 'based', raw: room.base.raw, hash: room.base.hash });
    },
    claimMerge: (room: Room, hash: string) =>
      relay.claimMerge(room.workspaceId, room.path, room.base.hash, hash),
    /** Tells the others the room stopped saving on a conflict with the file at `hash`. */
    conflict(room: Room, hash: string): void {
      relay.publish(room.workspaceId, room.path, { kind: 'conflict', hash });
    },
    release: (room: Room) => relay.hold(room.workspaceId, room.path, false),
  };
}

export type RoomsRelay = ReturnType<typeof createRoomsRelay>;
