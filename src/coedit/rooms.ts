import * as Y from 'yjs';
import type { Actor } from '../domain/actor.js';
import { CAN } from '../domain/policy.js';
import { AppError } from '../errors.js';
import type { EventBus, Unsubscribe } from '../events/bus.js';
import type { Logger } from '../logger.js';
import type { AccessService } from '../services/access.js';
import type { PagesService } from '../services/pages/pages.js';
import type { CoAuthorNotes } from './co-authors.js';
import { type CoeditPeer, Room } from './room.js';
import { rawFor, roomBase } from './room-text.js';
import { openFromFile } from './room-opening.js';
import type { RoomSnapshots } from './room-snapshots.js';
import type { RelayEnvelope, RoomRelay } from './relay.js';
import { createRoomsRelay } from './rooms-relay.js';

export interface RoomsDeps {
  pages: Pick<PagesService, 'read' | 'update'>;
  access: AccessService;
  events: EventBus;
  logger: Logger;
  snapshots: RoomSnapshots;
  coAuthors: CoAuthorNotes;
  /** Carries rooms across instances (REDIS_URL); null or absent with one instance. */
  relay?: RoomRelay | null;
  /** Quiet time after the last change before a room saves (default 2 s). */
  debounceMs?: number;
  /** A room with unsaved changes saves at the latest this long after the first (default 10 s). */
  maxWaitMs?: number;
}

const keyOf = (workspaceId: string, path: string) => `${workspaceId}\u0000${path}`;

/**
 * The co-editing rooms of this instance: one per open page, opened by the
 * first socket that joins and closed (after saving at once) when the last
 * leaves. Saves go through the ordinary page update service as the people
 * who typed, under its workspace lock, so a room's save is like any other
 * write: atomic file, index, search, activity, events, git commit. Changes
 * saved from outside (API, MCP, git) come back through the bus and are
 * merged into the open room, or stop its saving when they overlap.
 */
export function createRooms(deps: RoomsDeps) {
  const debounceMs = deps.debounceMs ?? 2000;
  const maxWaitMs = deps.maxWaitMs ?? 10_000;
  const rooms = new Map<string, Promise<Room>>();
  /** Each room's work (saves, outside changes, closing) runs one at a time, in order. */
  const queues = new WeakMap<Room, Promise<unknown>>();
  const offs: Unsubscribe[] = [];
  const relay = deps.relay
    ? createRoomsRelay(deps.relay, {
        roomAt: async (workspaceId, path) => rooms.get(keyOf(workspaceId, path))?.catch(() => undefined),
        schedule: (room) => schedule(room),
        serial: (room, work) => serial(room, work),
        checkOutsideNow: (room) => checkOutsideNow(room),
        stopOnConflict: (room, hash) => stopOnConflict(room, hash),
        logger: deps.logger,
      })
    : null;

  function serial<T>(room: Room, work: () => Promise<T>): Promise<T> {
    const run = (queues.get(room) ?? Promise.resolve()).then(work);
    queues.set(
      room,
      run.catch(() => undefined),
    );
    return run;
  }

  /** Opens the room of a page a reader just read: from another instance, or its stored state, or fresh. */
  async function open(workspaceId: string, path: string, content: string, hash: string): Promise<Room> {
    const room = await openHere(workspaceId, path, content, hash);
    await relay?.attach(room);
    return room;
  }

  async function openHere(workspaceId: string, path: string, content: string, hash: string): Promise<Room> {
    // Open on another instance: the same document, never a second seed of the file.
    const held = await relay?.heldElsewhere(workspaceId, path);
    if (held) return new Room(workspaceId, path, held.epoch, roomBase(held.raw, held.hash), held.state);
    return openFromFile(
      {
        snapshots: deps.snapshots,
        storeState,
        schedule,
        conflictDetected: (room) =>
          deps.events.emit('conflict-detected', { workspace_id: room.workspaceId, path: room.path }),
        sharedEpochs: relay !== null,
      },
      workspaceId,
      path,
      roomBase(content, hash),
    );
  }

  /** Stores the room's state with its base's hash; a failure is logged, the room goes on. */
  async function storeState(room: Room, state: Uint8Array): Promise<void> {
    try {
      await deps.snapshots.save(room.workspaceId, room.path, {
        epoch: room.epoch,
        contentHash: room.base.hash,
        base: room.base.raw,
        state,
      });
    } catch (error) {
      deps.logger.warn({ err: error, workspace_id: room.workspaceId }, 'storing a co-editing room failed');
    }
  }

  async function roomFor(actor: Actor, workspace: string, path: string) {
    const page = await deps.pages.read(actor, workspace, path);
    const { workspace: row } = await deps.access.require(actor, workspace, CAN.read);
    const key = keyOf(row.id, page.path);
    let opening = rooms.get(key);
    if (!opening) {
      opening = open(row.id, page.path, page.content, page.content_hash);
      rooms.set(key, opening);
      opening.catch(() => rooms.delete(key));
    }
    return { room: await opening, workspaceId: row.id };
  }

  /** The open room a socket is in, or an error for the socket. */
  async function joined(peer: CoeditPeer, workspaceId: string, path: string): Promise<Room> {
    const room = await rooms.get(keyOf(workspaceId, path))?.catch(() => undefined);
    if (!room || !room.peers.has(peer)) {
      throw new AppError('VALIDATION_ERROR', 'Join the page’s room before sending to it');
    }
    return room;
  }

  function schedule(room: Room): void {
    if (room.conflict || room.closed) return;
    const now = Date.now();
    room.dirtySince ??= now;
    if (room.timer) clearTimeout(room.timer);
    const wait = Math.max(0, Math.min(debounceMs, room.dirtySince + maxWaitMs - now));
    room.timer = setTimeout(() => void save(room), wait);
    room.timer.unref();
  }

  /** The writer a save runs as: the first who typed since the last save, else any writer present. */
  function saverOf(room: Room): Actor | null {
    const first = room.authors.values().next();
    if (!first.done) return first.value;
    for (const [peer] of room.peers) if (room.canWrite(peer)) return peer.actor;
    return null;
  }

  function save(room: Room): Promise<void> {
    if (room.timer) clearTimeout(room.timer);
    room.timer = null;
    return serial(room, () => saveNow(room)).catch((error: unknown) => {
      deps.logger.warn({ err: error, workspace_id: room.workspaceId }, 'saving a co-edited page failed');
      if (!room.closed) {
        room.broadcast({ type: 'error', error: 'INTERNAL_ERROR', message: 'Saving failed; retrying' });
        room.dirtySince = null;
        room.timer = setTimeout(() => void save(room), maxWaitMs);
        room.timer.unref();
      }
    });
  }

  async function saveNow(room: Room, retried = false): Promise<void> {
    if (room.conflict) return;
    const text = room.current;
    if (text === room.base.doc) {
      room.dirtySince = null;
      return;
    }
    const actor = saverOf(room);
    if (!actor) return;
    // The state as it will be written, stored first: if the server dies after the write and
    // before the state after it is stored, this one still fits the file (its text is the body).
    await storeState(room, Y.encodeStateAsUpdate(room.doc));
    const authors = [...room.authors.keys()];
    deps.coAuthors.note(
      room.workspaceId,
      room.path,
      authors.filter((id) => id !== actor.userId),
    );
    let saved;
    relay?.saving(room);
    try {
      saved = await deps.pages.update(actor, room.workspaceId, room.path, {
        body: rawFor(room.base, text),
        lastKnownHash: room.base.hash,
      });
    } catch (error) {
      relay?.saved(room, null, null);
      // Another instance is saving this room: its notice brings the base, then this one saves what is left.
      if (error instanceof AppError && error.code === 'CONFLICT' && room.remoteSaving > 0) return;
      // Written from outside since the room last looked: bring that in first, then try again.
      if (error instanceof AppError && error.code === 'CONFLICT' && !retried) {
        await checkOutsideNow(room);
        return saveNow(room, true);
      }
      throw error;
    }
    room.base = roomBase(saved.page.content, saved.page.content_hash);
    relay?.saved(room, room.base.raw, room.base.hash);
    room.authors.clear();
    room.dirtySince = null;
    await storeState(room, Y.encodeStateAsUpdate(room.doc));
    announceBase(room);
    if (room.unsaved) schedule(room);
  }

  /** Re-reads the page after an outside write and brings it into the room (see Room.bringInOutside). */
  async function checkOutsideNow(room: Room): Promise<void> {
    if (room.closed) return;
    if (room.remoteSaving > 0) {
      // Most likely that save's own write: look once its notice has brought the new base.
      room.outsidePending = true;
      return;
    }
    const reader = room.peers.keys().next();
    if (reader.done) return;
    let page;
    try {
      page = await deps.pages.read(reader.value.actor, room.workspaceId, room.path);
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return close(room, 'page_deleted');
      throw error;
    }
    const next = roomBase(page.content, page.content_hash);
    // Each instance holds the room: only one brings an outside change in, the others get its updates.
    if (relay && next.hash !== room.base.hash && next.doc !== room.current) {
      if (!(await relay.claimMerge(room, next.hash))) return;
    }
    const before = room.base.hash;
    const result = room.bringInOutside(next);
    if (result === 'merged') relay?.based(room);
    // The file holds the room's text as it now stands (bar unsaved edits): the editors' "Saved".
    if (room.base.hash !== before) announceBase(room);
    if (result === 'conflict' && !room.conflict) {
      stopOnConflict(room, page.content_hash);
      relay?.conflict(room, page.content_hash);
      deps.events.emit('conflict-detected', { workspace_id: room.workspaceId, path: room.path });
    } else if (result === 'merged' && room.unsaved) schedule(room);
  }

  /** Tells the room's sockets the file now holds `room.base` (a save, or an outside change brought in). */
  function announceBase(room: Room): void {
    room.broadcast({ type: 'yjs-saved', content_hash: room.base.hash, saved_text: room.base.doc });
  }

  function stopOnConflict(room: Room, hash: string): void {
    if (room.conflict) return;
    room.conflict = true;
    if (room.timer) clearTimeout(room.timer);
    room.broadcast({ type: 'yjs-conflict', content_hash: hash });
  }

  function checkOutside(room: Room): void {
    void serial(room, () => checkOutsideNow(room)).catch((error: unknown) =>
      deps.logger.warn({ err: error, workspace_id: room.workspaceId }, 'merging an outside change failed'),
    );
  }

  /** Ends a room: tells its sockets why and forgets it. */
  function close(room: Room, reason: string, extra: Record<string, unknown> = {}): void {
    if (room.closed) return;
    room.broadcast({ type: 'yjs-closed', reason, ...extra });
    rooms.delete(keyOf(room.workspaceId, room.path));
    room.destroy();
    void relay?.release(room).catch(() => undefined);
    if (reason === 'page_deleted' || reason === 'page_moved')
      void deps.snapshots.remove(room.workspaceId, room.path).catch(() => undefined);
  }

  /** Runs `fn` on the room of every open page of a workspace (optionally only at `path`). */
  function eachRoom(workspaceId: string, path: string | null, fn: (room: Room) => void): void {
    for (const [key, opening] of rooms) {
      if (!key.startsWith(`${workspaceId}\u0000`)) continue;
      if (path !== null && key !== keyOf(workspaceId, path)) continue;
      void opening.then((room) => !room.closed && fn(room)).catch(() => undefined);
    }
  }

  offs.push(
    deps.events.on('page-updated', (e) => eachRoom(e.payload.workspace_id, e.payload.path, checkOutside)),
    deps.events.on('bulk-sync', (e) =>
      e.payload.paths.forEach((p) => eachRoom(e.payload.workspace_id, p, checkOutside)),
    ),
    deps.events.on('page-deleted', (e) =>
      eachRoom(e.payload.workspace_id, e.payload.path, (room) =>
        serial(room, async () => close(room, 'page_deleted')),
      ),
    ),
    deps.events.on('page-moved', (e) =>
      eachRoom(e.payload.workspace_id, e.payload.old_path, (room) =>
        serial(room, async () => close(room, 'page_moved', { new_path: e.payload.new_path })),
      ),
    ),
    deps.events.on('member-removed', (e) =>
      eachRoom(e.payload.workspace_id, null, (room) => {
        for (const peer of [...room.peers.keys()]) {
          if (peer.actor.userId === e.payload.user_id) void rejoinCheck(room, peer);
        }
      }),
    ),
  );

  /** Drops a socket from a room once its user can no longer read the workspace. */
  async function rejoinCheck(room: Room, peer: CoeditPeer): Promise<void> {
    const workspace = await deps.access.findWorkspace(room.workspaceId);
    if (workspace && (await deps.access.roleIn(peer.actor, workspace)) !== null) return;
    peer.send({
      type: 'yjs-closed',
      workspace_id: room.workspaceId,
      path: room.path,
      reason: 'access_revoked',
    });
    leaveRoom(room, peer);
  }

  function leaveRoom(room: Room, peer: CoeditPeer): void {
    if (!room.leave(peer)) return;
    // The last one out: save at once, then close unless someone joined meanwhile.
    void save(room).then(() =>
      serial(room, async () => {
        if (room.peers.size === 0 && !room.closed) close(room, 'empty');
      }),
    );
  }

  return {
    /**
     * Puts a socket into a page's room (read access needed, as for reading the
     * page) and sends it the room's state. Editors may write; commenters and
     * viewers only follow.
     */
    async join(peer: CoeditPeer, workspace: string, path: string): Promise<void> {
      const { room, workspaceId } = await roomFor(peer.actor, workspace, path);
      const writable = await deps.access
        .require(peer.actor, workspaceId, CAN.edit)
        .then(() => true)
        .catch(() => false);
      peer.send(room.join(peer, writable));
    },

    /** A writer's Yjs update; from a socket that may not write it is dropped and the socket told why. */
    async update(peer: CoeditPeer, workspaceId: string, path: string, update: Uint8Array): Promise<void> {
      const room = await joined(peer, workspaceId, path);
      if (!room.canWrite(peer)) {
        throw new AppError(
          'FORBIDDEN',
          'Viewers and commenters follow the page live but cannot change it; your change was not applied',
        );
      }
      if (room.applyUpdate(peer, update)) schedule(room);
    },

    /** A socket's cursor and selection (any reader may show where they are). */
    async awareness(peer: CoeditPeer, workspaceId: string, path: string, update: Uint8Array): Promise<void> {
      (await joined(peer, workspaceId, path)).applyAwareness(peer, update);
    },

    /** A writer settled a conflict in the merge view: the room's text is the page again and saves. */
    async resolved(peer: CoeditPeer, workspaceId: string, path: string): Promise<void> {
      const room = await joined(peer, workspaceId, path);
      if (!room.canWrite(peer)) throw new AppError('FORBIDDEN', 'Only editors resolve conflicts');
      await serial(room, async () => {
        const page = await deps.pages.read(peer.actor, workspaceId, path);
        room.base = roomBase(page.content, page.content_hash);
        room.conflict = false;
        if (!room.authors.has(peer.actor.userId)) room.authors.set(peer.actor.userId, peer.actor);
        announceBase(room);
      });
      // The writer chose the text: saved now, not after the debounce.
      if (room.unsaved) await save(room);
    },

    /** Takes a socket out of a page's room. */
    async leave(peer: CoeditPeer, workspaceId: string, path: string): Promise<void> {
      const room = await rooms.get(keyOf(workspaceId, path))?.catch(() => undefined);
      if (room) leaveRoom(room, peer);
    },

    /** Takes a closing socket out of every room it is in. */
    leaveAll(peer: CoeditPeer): void {
      for (const opening of rooms.values()) {
        void opening.then((room) => room.peers.has(peer) && leaveRoom(room, peer)).catch(() => undefined);
      }
    },

    /** A message about a room from another instance (the relay calls this). */
    relayed(message: RelayEnvelope): void {
      relay?.receive(message);
    },

    /** Open rooms and their sockets on this instance (health, tests, benchmarks). */
    async stats(): Promise<{ rooms: number; peers: number }> {
      const all = await Promise.all([...rooms.values()].map((r) => r.catch(() => null)));
      return { rooms: all.length, peers: all.reduce((n, r) => n + (r?.peers.size ?? 0), 0) };
    },

    /** Saves every room with unsaved text and closes them all (server shutdown). */
    async close(): Promise<void> {
      for (const off of offs.splice(0)) off();
      const all = await Promise.all([...rooms.values()].map((r) => r.catch(() => null)));
      await Promise.all(
        all.map(async (room) => {
          if (!room) return;
          await save(room);
          await serial(room, async () => close(room, 'server_stopping'));
        }),
      );
    },
  };
}

export type Rooms = ReturnType<typeof createRooms>;
