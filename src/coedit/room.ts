import * as Y from 'yjs';
import {
  applyAwarenessUpdate,
  Awareness,
  encodeAwarenessUpdate,
  removeAwarenessStates,
} from 'y-protocols/awareness';
import type { Actor } from '../domain/actor.js';
import type { RoomBase } from './room-text.js';
import { changesOverlap, mapPosition, textChanges } from './text-diff.js';

/** One socket in a room, as the room sees it: who, and how to reach them. */
export interface CoeditPeer {
  actor: Actor;
  /** Sends one JSON message to this socket. */
  send(message: Record<string, unknown>): void;
}

interface PeerState {
  writable: boolean;
  /** The awareness client ids this socket announced, removed when it leaves. */
  awarenessIds: Set<number>;
}

/** What happened when a change from outside the room was brought in. */
export type OutsideResult = 'none' | 'merged' | 'conflict';

const ORIGIN_OUTSIDE = Symbol('outside');
/** Updates that came from another instance: they are not relayed again. */
const ORIGIN_RELAY = Symbol('relay');

/**
 * The Yjs client id a fresh room writes its seed text with, taken from the file's hash:
 * instances seeding the same file independently write identical items, which Yjs merges
 * as one, so a room opened at once on two instances cannot hold its text twice.
 */
export function seedClientId(hash: string): number {
  const hex = hash.slice(hash.lastIndexOf(':') + 1).replace(/[^0-9a-f]/gi, '');
  return parseInt(hex.slice(0, 8) || '1', 16) >>> 1 || 1;
}

/** What a room passes on to other instances (the relay), when there is one. */
export type RoomShare = (message: { kind: 'update' | 'awareness'; update: Uint8Array }) => void;

/**
 * One open page: a Yjs document whose text `body` is the page body (LF line
 * breaks), the awareness (cursors, selections, names) of the sockets in it,
 * and `base`, the body as last saved, which decides what is unsaved. Pure
 * state and fan-out; rooms.ts decides when to open, save and close.
 */
export class Room {
  readonly doc = new Y.Doc();
  readonly text = this.doc.getText('body');
  readonly awareness = new Awareness(this.doc);
  readonly peers = new Map<CoeditPeer, PeerState>();
  /** Who typed since the last save, in the order they first did. */
  readonly authors = new Map<string, Actor>();
  /** When the first unsaved change arrived (for the save's longest wait). */
  dirtySince: number | null = null;
  timer: NodeJS.Timeout | null = null;
  /** Saving stopped: an outside change overlapped unsaved edits, until a writer resolves it. */
  conflict = false;
  closed = false;
  saving: Promise<void> | null = null;
  /** Passes this instance's changes on to other instances (null: one instance). */
  share: RoomShare | null = null;
  /** Saves announced by other instances that have not ended yet, by instance (a timer for one that died). */
  readonly remoteSaves = new Map<string, NodeJS.Timeout>();
  /** An outside change waits for those saves to end before it is looked at. */
  outsidePending = false;

  constructor(
    readonly workspaceId: string,
    public path: string,
    public epoch: string,
    public base: RoomBase,
    state: Uint8Array | null,
  ) {
    this.awareness.setLocalState(null);
    if (state) Y.applyUpdate(this.doc, state);
    else {
      const own = this.doc.clientID;
      this.doc.clientID = seedClientId(base.hash);
      this.text.insert(0, base.doc);
      this.doc.clientID = own;
    }
    // Changes brought in from outside or from another instance have no socket to pass them on.
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin === ORIGIN_OUTSIDE || origin === ORIGIN_RELAY)
        this.broadcast({ type: 'yjs-update', update: encode(update) });
      if (origin !== ORIGIN_RELAY) this.share?.({ kind: 'update', update });
    });
    this.awareness.on(
      'update',
      (change: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
        const peer = this.peers.get(origin as CoeditPeer);
        if (!peer) return;
        for (const id of [...change.added, ...change.updated]) peer.awarenessIds.add(id);
        for (const id of change.removed) peer.awarenessIds.delete(id);
      },
    );
  }

  /** The room's text now. */
  get current(): string {
    return this.text.toString();
  }

  /** The room's whole Yjs state, as one update. */
  stateUpdate(): Uint8Array {
    return Y.encodeStateAsUpdate(this.doc);
  }

  /** How many saves other instances announced and have not ended. */
  get remoteSaving(): number {
    return this.remoteSaves.size;
  }

  /** Whether the text differs from what was last saved. */
  get unsaved(): boolean {
    return this.current !== this.base.doc;
  }

  /** Adds a socket; answers the message that opens the room on its side. */
  join(peer: CoeditPeer, writable: boolean): Record<string, unknown> {
    this.peers.set(peer, { writable, awarenessIds: new Set() });
    const ids = [...this.awareness.getStates().keys()];
    return {
      type: 'yjs-joined',
      workspace_id: this.workspaceId,
      path: this.path,
      epoch: this.epoch,
      writable,
      content_hash: this.base.hash,
      saved_text: this.base.doc,
      conflict: this.conflict,
      state: encode(Y.encodeStateAsUpdate(this.doc)),
      awareness: ids.length > 0 ? encode(encodeAwarenessUpdate(this.awareness, ids)) : null,
    };
  }

  /** Removes a socket and its cursors; answers whether the room is now empty. */
  leave(peer: CoeditPeer): boolean {
    const state = this.peers.get(peer);
    if (!state) return this.peers.size === 0;
    this.peers.delete(peer);
    const ids = [...state.awarenessIds];
    if (ids.length > 0) {
      const update = encodeAwarenessUpdate(this.awareness, ids);
      removeAwarenessStates(this.awareness, ids, 'leave');
      this.broadcast({ type: 'yjs-awareness', update: encode(update) }, peer);
      this.share?.({ kind: 'awareness', update });
    }
    return this.peers.size === 0;
  }

  /** Whether `peer` is in the room and may change the text. */
  canWrite(peer: CoeditPeer): boolean {
    return this.peers.get(peer)?.writable === true;
  }

  /** Applies a writer's update and passes it on to the others; answers whether the text changed. */
  applyUpdate(peer: CoeditPeer, update: Uint8Array): boolean {
    const before = this.current;
    Y.applyUpdate(this.doc, update, peer);
    this.broadcast({ type: 'yjs-update', update: encode(update) }, peer);
    const changed = this.current !== before;
    if (changed && !this.authors.has(peer.actor.userId)) this.authors.set(peer.actor.userId, peer.actor);
    return changed;
  }

  /** Applies a socket's cursor and selection and passes them on. */
  applyAwareness(peer: CoeditPeer, update: Uint8Array): void {
    applyAwarenessUpdate(this.awareness, update, peer);
    this.broadcast({ type: 'yjs-awareness', update: encode(update) }, peer);
    this.share?.({ kind: 'awareness', update });
  }

  /** Applies an update relayed from another instance; answers whether the text changed. */
  applyRelayed(update: Uint8Array): boolean {
    const before = this.current;
    Y.applyUpdate(this.doc, update, ORIGIN_RELAY);
    return this.current !== before;
  }

  /** Applies cursors relayed from another instance and shows them to this instance's sockets. */
  applyRelayedAwareness(update: Uint8Array): void {
    applyAwarenessUpdate(this.awareness, update, ORIGIN_RELAY);
    this.broadcast({ type: 'yjs-awareness', update: encode(update) });
  }

  /**
   * Brings a body saved from outside the room (an API PUT, an MCP write, a
   * pull) in as the minimal changes from the last-saved base, mapped over the
   * room's unsaved edits so concurrent typing elsewhere merges. When they
   * touch the same place, nothing is applied: the room keeps its text (both
   * sides are kept: the outside one in the file) and answers 'conflict'.
   * `asClient` writes the changes under that Yjs client id instead of the
   * room's own (see `seedClientId`: instances doing the same thing agree).
   */
  bringInOutside(next: RoomBase, asClient?: number): OutsideResult {
    if (next.hash === this.base.hash) return 'none';
    if (next.doc === this.current) {
      // The outside write already says what the room says (another instance saved it).
      this.base = next;
      return 'none';
    }
    const ours = textChanges(this.base.doc, this.current);
    const theirs = textChanges(this.base.doc, next.doc);
    if (changesOverlap(ours, theirs)) return 'conflict';
    const mapped = theirs.map((c) => ({
      from: mapPosition(ours, c.from),
      to: mapPosition(ours, c.to),
      insert: c.insert,
    }));
    const own = this.doc.clientID;
    if (asClient !== undefined) this.doc.clientID = asClient;
    try {
      this.doc.transact(() => {
        for (const c of [...mapped].reverse()) {
          if (c.to > c.from) this.text.delete(c.from, c.to - c.from);
          if (c.insert) this.text.insert(c.from, c.insert);
        }
      }, ORIGIN_OUTSIDE);
    } finally {
      this.doc.clientID = own;
    }
    this.base = next;
    return 'merged';
  }

  /** Sends `message` (with this room's workspace and path) to every socket but `except`. */
  broadcast(message: Record<string, unknown>, except?: CoeditPeer): void {
    const full = { ...message, workspace_id: this.workspaceId, path: this.path };
    for (const peer of this.peers.keys()) if (peer !== except) peer.send(full);
  }

  /** Stops the timers of the room's awareness and document. */
  destroy(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const timer of this.remoteSaves.values()) clearTimeout(timer);
    this.awareness.destroy();
    this.doc.destroy();
  }
}

/** Yjs updates travel as base64 inside the hub's JSON messages. */
export const encode = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');
