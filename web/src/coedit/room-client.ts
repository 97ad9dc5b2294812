import * as Y from 'yjs';
import { applyAwarenessUpdate, Awareness, encodeAwarenessUpdate } from 'y-protocols/awareness';
import type { CoeditMessage } from '../../../src/contract/events';
import type { EventHub, ServerEvent } from '../live/event-hub';

/** What the server says when a socket joins a page's room. */
export interface Joined {
  epoch: string;
  writable: boolean;
  content_hash: string;
  /** The text as last saved to the file. */
  saved_text: string;
  conflict: boolean;
}

/** What a room tells the editor. */
export interface RoomHandlers {
  /** Joined; `fresh` when this document is new (first join, or the server started a new epoch). */
  joined(joined: Joined, fresh: boolean): void;
  saved(text: string, hash: string): void;
  conflict(): void;
  closed(reason: string, newPath: string | undefined): void;
  /** Co-editing is off on this server: the editor keeps saving by itself. */
  unavailable(): void;
  refused(message: string): void;
}

const REMOTE = 'remote';
const bytesOf = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/**
 * One page's co-editing room on the workspace socket: a Yjs document kept in
 * step with the server's, and the awareness (cursors and names) of everyone
 * in it. Joins again after each reconnect with the epoch it holds, so edits
 * made while offline are sent once; a new epoch means a new document.
 */
export class RoomClient {
  doc = new Y.Doc();
  awareness = new Awareness(this.doc);
  private epoch: string | null = null;
  private offs: Array<() => void> = [];
  private closed = false;

  constructor(
    private readonly hub: EventHub,
    private readonly workspaceId: string,
    private readonly path: string,
    private readonly user: { name: string; colour: number },
    private readonly handlers: RoomHandlers,
  ) {
    this.wire();
    this.offs.push(
      hub.on((event) => this.receive(event)),
      hub.onConnection((connected) => connected && this.join()),
    );
  }

  get text(): Y.Text {
    return this.doc.getText('body');
  }

  private wire(): void {
    this.awareness.setLocalStateField('user', this.user);
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== REMOTE) this.send('yjs-update', update);
    });
    this.awareness.on('update', ({ added, updated, removed }: Record<string, number[]>, origin: unknown) => {
      if (origin === REMOTE) return;
      const ids = [...added!, ...updated!, ...removed!];
      this.send('yjs-awareness', encodeAwarenessUpdate(this.awareness, ids));
    });
  }

  private send(type: string, update: Uint8Array): void {
    if (this.closed || this.epoch === null) return;
    this.hub.send({ type, workspace_id: this.workspaceId, path: this.path, update: base64(update) });
  }

  private join(): void {
    if (this.closed) return;
    this.hub.send({ type: 'yjs-join', workspace_id: this.workspaceId, path: this.path, epoch: this.epoch });
  }

  private receive(event: ServerEvent): void {
    if (this.closed || !('path' in event) || event.path !== this.path) return;
    if (event.type === 'error') {
      if (event.error === 'FORBIDDEN') this.handlers.refused(event.message);
      return;
    }
    if (!isCoedit(event)) return;
    const m = event;
    switch (m.type) {
      case 'yjs-joined':
        return this.joined(m as unknown as Joined & { state: string; awareness: string | null });
      case 'yjs-update':
        return Y.applyUpdate(this.doc, bytesOf(String(m.update)), REMOTE);
      case 'yjs-awareness':
        return applyAwarenessUpdate(this.awareness, bytesOf(String(m.update)), REMOTE);
      case 'yjs-saved':
        return this.handlers.saved(String(m.saved_text), String(m.content_hash));
      case 'yjs-conflict':
        return this.handlers.conflict();
      case 'yjs-closed':
        // A server stopping saved the room first; this tab joins again when it is back.
        if (m.reason === 'server_stopping') return;
        this.stop();
        return this.handlers.closed(String(m.reason), m.new_path as string | undefined);
      case 'yjs-unavailable':
        this.stop();
        return this.handlers.unavailable();
    }
  }

  private joined(m: Joined & { state: string; awareness: string | null }): void {
    const fresh = m.epoch !== this.epoch;
    if (fresh && this.epoch !== null) {
      // The server started over: this document's history would add its text a second time.
      this.awareness.destroy();
      this.doc.destroy();
      this.doc = new Y.Doc();
      this.awareness = new Awareness(this.doc);
      this.wire();
    }
    const state = bytesOf(m.state);
    Y.applyUpdate(this.doc, state, REMOTE);
    if (m.awareness) applyAwarenessUpdate(this.awareness, bytesOf(m.awareness), REMOTE);
    this.epoch = m.epoch;
    // What this tab typed while the server could not hear it.
    const missing = Y.encodeStateAsUpdate(this.doc, Y.encodeStateVectorFromUpdate(state));
    if (!fresh && missing.length > 2) this.send('yjs-update', missing);
    this.send('yjs-awareness', encodeAwarenessUpdate(this.awareness, [this.doc.clientID]));
    this.handlers.joined(m, fresh);
  }

  /** Tells the room a conflict was settled in the merge view. */
  resolved(): void {
    this.hub.send({ type: 'yjs-resolved', workspace_id: this.workspaceId, path: this.path });
  }

  private stop(): void {
    this.closed = true;
    for (const off of this.offs.splice(0)) off();
  }

  /** Leaves the room (the page closed). */
  destroy(): void {
    if (!this.closed) this.hub.send({ type: 'yjs-leave', workspace_id: this.workspaceId, path: this.path });
    this.stop();
    this.awareness.destroy();
    this.doc.destroy();
  }
}

/** Whether a message belongs to co-editing (its type starts with `yjs-`). */
const isCoedit = (event: ServerEvent): event is CoeditMessage => event.type.startsWith('yjs-');
