import { ulid } from 'ulid';
import { contentHash } from '../domain/frontmatter.js';
import { type OutsideResult, Room, seedClientId } from './room.js';
import { type RoomBase, roomBase } from './room-text.js';
import type { RoomSnapshot, RoomSnapshots } from './room-snapshots.js';

/** What opening a room from the file needs from the rooms around it. */
export interface OpeningDeps {
  snapshots: Pick<RoomSnapshots, 'load'>;
  /** Stores the room's state with its base (a failure is the caller's to log). */
  storeState(room: Room, state: Uint8Array): Promise<void>;
  /** Schedules a save of the room's unsaved text. */
  schedule(room: Room): void;
  /** The room opened in conflict with the file (see `Reopened`). */
  conflictDetected(room: Room): void;
  /** Instances share rooms: a new epoch is named after the file's hash, so they agree on it. */
  sharedEpochs: boolean;
}

/**
 * Opens a page's room on this instance from the file (`file`) and the page's stored
 * state: the stored state with the file brought in when it can (`reopenRoom`), otherwise
 * a new epoch seeded from the file, stored at once.
 */
export async function openFromFile(
  deps: OpeningDeps,
  workspaceId: string,
  path: string,
  file: RoomBase,
): Promise<Room> {
  const saved = await deps.snapshots.load(workspaceId, path);
  const reopened = saved && reopenRoom(workspaceId, path, saved, file);
  if (reopened) {
    const { room, change } = reopened;
    if (change === 'conflict') {
      room.conflict = true;
      deps.conflictDetected(room);
      return room;
    }
    // The file's changes are in the state now: stored with the file's hash and body, so the
    // next opening (after a kill before any save, say) starts from here.
    if (change === 'merged') await deps.storeState(room, room.stateUpdate());
    // Edits the state holds beyond the file: typed during the last save, or the save never ran.
    if (room.unsaved) deps.schedule(room);
    return room;
  }
  // No state, or one that cannot be diffed against the file: a new epoch makes clients start fresh.
  const hex = file.hash.slice(file.hash.lastIndexOf(':') + 1);
  const room = new Room(
    workspaceId,
    path,
    deps.sharedEpochs ? `seed-${hex.slice(0, 32)}` : ulid(),
    file,
    null,
  );
  // Stored at once, before anyone types: a server killed before the room's first save opens
  // this epoch again, and the editors' unsaved edits merge in rather than being added anew.
  await deps.storeState(room, room.stateUpdate());
  return room;
}

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
