import { contentHash } from '../domain/frontmatter.js';
import { type OutsideResult, Room, seedClientId } from './room.js';
import { type RoomBase, roomBase } from './room-text.js';
import type { RoomSnapshot } from './room-snapshots.js';

/** A room opened again from its stored state, and what bringing the file into it did. */
export interface Reopened {
  room: Room;
  /**
   * 'none': the state fits the file as it is. 'merged': the file changed while no room was
   * open and its changes are now in the room's text. 'conflict': those changes touch edits the
   * state holds beyond its last save; the room keeps its text and its old base, as an open
   * room does when an outside change overlaps.
   */
  change: OutsideResult;
}

/**
 * Opens a page's room from its stored state (same epoch, same Yjs history), so editors
 * coming back with that epoch hand over what they typed as Yjs updates, which merge once
 * however many of them send the same words. When the file changed while no room was open
 * (a pull, an API edit while the server was down or while every editor was offline), its
 * changes from the state's base are applied to the state as a minimal diff, exactly as an
 * outside change is applied to an open room. Answers null when the state cannot be used: it
 * has no base (stored before bases were kept) or a base that is not the body at its hash.
 */
export function reopenRoom(
  workspaceId: string,
  path: string,
  saved: RoomSnapshot,
  file: RoomBase,
): Reopened | null {
  const room = new Room(workspaceId, path, saved.epoch, file, saved.state);
  // The state fits a file still at its hash, or one whose body is its text (written by a
  // save that was cut short before its state was stored again).
  if (saved.contentHash === file.hash || room.current === file.doc) return { room, change: 'none' };
  if (saved.base === null || contentHash(saved.base) !== saved.contentHash) {
    room.destroy();
    return null;
  }
  room.base = roomBase(saved.base, saved.contentHash);
  // Written under a client id taken from the file's hash: instances reopening the same state
  // for the same file at once write identical items, which Yjs keeps once (as with a seed).
  return { room, change: room.bringInOutside(file, seedClientId(file.hash)) };
}
