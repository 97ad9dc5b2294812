import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { contentHash } from '../domain/frontmatter.js';
import { Room } from './room.js';
import { reopenRoom } from './room-opening.js';
import { roomBase } from './room-text.js';
import type { RoomSnapshot } from './room-snapshots.js';

const base = (raw: string) => roomBase(raw, contentHash(raw));

/** A room at `saved`, optionally typed into beyond it, stored as rooms.ts stores it. */
function stored(saved: string, typed?: (text: Y.Text) => void): RoomSnapshot {
  const room = new Room('ws', 'p.md', 'epoch-1', base(saved), null);
  typed?.(room.text);
  const snapshot = { epoch: 'epoch-1', contentHash: room.base.hash, base: saved, state: room.stateUpdate() };
  room.destroy();
  return snapshot;
}

describe('reopenRoom', () => {
  it('applies a file changed while no room was open as a diff, keeping the epoch and the state’s edits', () => {
    const snapshot = stored('one\ntwo\nthree\n', (t) => t.insert(t.length, 'typed\n'));
    const opened = reopenRoom('ws', 'p.md', snapshot, base('one\ntwo, pulled\nthree\n'))!;
    expect(opened.change).toBe('merged');
    expect(opened.room.epoch).toBe('epoch-1');
    expect(opened.room.current).toBe('one\ntwo, pulled\nthree\ntyped\n');
    expect(opened.room.base.doc).toBe('one\ntwo, pulled\nthree\n');
    // A client holding the stored state gets only the diff: its own items are known already.
    const client = new Y.Doc();
    Y.applyUpdate(client, snapshot.state);
    Y.applyUpdate(client, opened.room.stateUpdate());
    expect(client.getText('body').toString()).toBe(opened.room.current);
  });

  it('writes the same items on two instances reopening the same state for the same file', () => {
    const snapshot = stored('a\nb\n');
    const file = base('a\nb\nc\n');
    const one = reopenRoom('ws', 'p.md', snapshot, file)!;
    const two = reopenRoom('ws', 'p.md', snapshot, file)!;
    Y.applyUpdate(one.room.doc, two.room.stateUpdate());
    expect(one.room.current).toBe('a\nb\nc\n');
  });

  it('keeps the state’s text and old base when the file’s change overlaps its unsaved edits', () => {
    const snapshot = stored('one\ntwo\n', (t) => t.insert(3, ' mine'));
    const opened = reopenRoom('ws', 'p.md', snapshot, base('one theirs\ntwo\n'))!;
    expect(opened.change).toBe('conflict');
    expect(opened.room.current).toBe('one mine\ntwo\n');
    expect(opened.room.base.doc).toBe('one\ntwo\n');
  });

  it('fits a file still at the state’s hash, and refuses a changed file without a usable base', () => {
    const snapshot = stored('same\n');
    expect(reopenRoom('ws', 'p.md', snapshot, base('same\n'))!.change).toBe('none');
    expect(reopenRoom('ws', 'p.md', { ...snapshot, base: null }, base('other\n'))).toBeNull();
    expect(reopenRoom('ws', 'p.md', { ...snapshot, base: 'not it\n' }, base('other\n'))).toBeNull();
  });
});
