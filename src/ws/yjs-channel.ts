import type { CoeditPeer } from '../coedit/room.js';
import { yjsClientMessage } from '../coedit/messages.js';
import type { Rooms } from '../coedit/rooms.js';
import { AppError } from '../errors.js';

/** A hub socket as the `yjs` channel needs it. */
export interface YjsPeer extends CoeditPeer {
  /** Re-checks the socket's credentials (a logout since connecting ends it); updates `actor`. */
  reauthenticate(): Promise<void>;
}

const bytesOf = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));

/**
 * The `yjs` message channel of `/ws`, next to the event channel: parses a
 * socket's `yjs-*` messages and hands them to the co-editing rooms. Without
 * rooms (co-editing turned off) it answers `yjs-unavailable`, and the web
 * app keeps saving page by page.
 */
export function createYjsChannel(rooms: Rooms | null) {
  return {
    /** Handles one parsed `yjs-*` message; errors go back to the socket as `{ type: "error" }`. */
    async handle(peer: YjsPeer, parsed: unknown): Promise<void> {
      const result = yjsClientMessage.safeParse(parsed);
      if (!result.success) {
        return peer.send({
          type: 'error',
          error: 'VALIDATION_ERROR',
          message:
            'Expected { type: "yjs-join" | "yjs-update" | "yjs-awareness" | "yjs-leave" | "yjs-resolved", workspace_id, path, … }',
        });
      }
      const message = result.data;
      const where = { workspace_id: message.workspace_id, path: message.path };
      if (!rooms) {
        return peer.send({ type: 'yjs-unavailable', ...where, message: 'Co-editing is off on this server' });
      }
      try {
        switch (message.type) {
          case 'yjs-join':
            await peer.reauthenticate();
            return await rooms.join(peer, message.workspace_id, message.path);
          case 'yjs-update':
            return await rooms.update(peer, message.workspace_id, message.path, bytesOf(message.update));
          case 'yjs-awareness':
            return await rooms.awareness(peer, message.workspace_id, message.path, bytesOf(message.update));
          case 'yjs-resolved':
            return await rooms.resolved(peer, message.workspace_id, message.path);
          case 'yjs-leave':
            return await rooms.leave(peer, message.workspace_id, message.path);
        }
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        peer.send({ type: 'error', error: error.code, message: error.message, ...where });
      }
    },

    /** A socket closed: it leaves every room it was in. */
    disconnect(peer: YjsPeer): void {
      rooms?.leaveAll(peer);
    },
  };
}

export type YjsChannel = ReturnType<typeof createYjsChannel>;
