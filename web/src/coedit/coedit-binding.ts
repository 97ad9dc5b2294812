import { isolateHistory } from '@codemirror/commands';
import { Compartment, EditorState, Prec, Transaction } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { yCollab, yUndoManagerKeymap } from 'y-codemirror.next';
import * as Y from 'yjs';
import type { PageSession } from '../editor/page-session';
import { changesBetween, mergeThreeWay } from '../editor/raw-text';
import type { EventHub } from '../live/event-hub';
import { RoomClient } from './room-client';
import { remoteCursors } from './remote-cursors';

/**
 * A transaction marked `isolateHistory` (an uploaded file's link) is one undo step
 * of its own in the room's undo manager too, which otherwise merges the changes of half a second.
 */
function isolatedSteps(undoManager: Y.UndoManager) {
  const isolated = (tr: Transaction) => tr.annotation(isolateHistory) !== undefined;
  return [
    // Before y-codemirror passes the change on to the room (when the view updates).
    EditorState.transactionExtender.of((tr) => {
      if (isolated(tr)) undoManager.stopCapturing();
      return null;
    }),
    // After it: the next edit starts a step of its own.
    EditorView.updateListener.of((update) => {
      if (update.transactions.some(isolated)) undoManager.stopCapturing();
    }),
  ];
}

export interface CoeditOptions {
  hub: EventHub;
  workspaceId: string;
  path: string;
  user: { name: string; colour: number };
}

/**
 * Puts an open page's editor into its co-editing room once the server lets
 * it in: the editor then shows the room's text with everyone's cursors and
 * names, the room saves (the session only tracks "Saved" and keeps the local
 * draft), outside changes arrive as edits, and an overlapping one opens the
 * merge view. Until then, or when the server has co-editing off, the editor
 * saves on its own as before.
 */
export function coeditBinding(options: CoeditOptions) {
  const compartment = new Compartment();
  let room: RoomClient | null = null;

  function show(view: EditorView, text: string): void {
    const current = view.state.doc.toString();
    if (current === text) return;
    view.dispatch({
      changes: changesBetween(current, text),
      annotations: Transaction.addToHistory.of(false),
    });
  }

  function bind(view: EditorView, session: PageSession, active: RoomClient, writable: boolean): void {
    const mine = session.currentDoc();
    const saved = session.savedDoc;
    const roomText = active.text.toString();
    // Typed here before the room let us in (or against an older epoch): merged into the room's
    // text first, so the editor changes only where the room differs from what it shows (a
    // writer typing as the room opens keeps their cursor and an open completion list).
    if (writable && mine !== saved && mine !== roomText) {
      const merged = mergeThreeWay(saved, mine, roomText).text;
      const changes: Array<{ from: number; to: number; insert: string }> = [];
      changesBetween(roomText, merged).iterChanges((from, to, _fromB, _toB, insert) =>
        changes.push({ from, to, insert: insert.toString() }),
      );
      active.doc.transact(() => {
        // From the end, so the offsets of the earlier ones stay valid.
        for (const { from, to, insert } of changes.reverse()) {
          if (to > from) active.text.delete(from, to - from);
          if (insert) active.text.insert(from, insert);
        }
      });
    }
    view.dispatch({ effects: compartment.reconfigure([]) });
    show(view, active.text.toString());
    const undoManager = new Y.UndoManager(active.text);
    view.dispatch({
      effects: compartment.reconfigure([
        // No awareness for y-codemirror's own cursors (inline styles, refused by the CSP): ours draw them.
        yCollab(active.text, null, { undoManager }),
        remoteCursors(active.text, active.awareness),
        Prec.high(keymap.of(yUndoManagerKeymap)),
        isolatedSteps(undoManager),
      ]),
    });
  }

  return {
    /** The editor extension the room's binding is swapped into. */
    extension: compartment.of([]),

    /** Joins the room of the page shown in `view`. */
    start(view: EditorView, session: PageSession): void {
      const active = new RoomClient(options.hub, options.workspaceId, options.path, options.user, {
        joined: (joined, fresh) => {
          if (fresh) bind(view, session, active, joined.writable);
          session.enterRoom(joined.saved_text, joined.content_hash, () => active.resolved());
          if (joined.conflict) void session.openConflict(session.currentDoc(), joined.saved_text);
        },
        saved: (text, hash) => session.roomSaved(text, hash),
        conflict: () => void session.openConflict(session.currentDoc()),
        closed: (reason, newPath) => {
          view.dispatch({ effects: compartment.reconfigure([]) });
          session.leaveRoom(
            reason === 'page_moved'
              ? `This page was moved to ${newPath ?? 'another place'}. Your text is kept on this device.`
              : reason === 'page_deleted'
                ? 'This page was deleted. Your text is kept on this device.'
                : 'Live editing stopped. Your text is kept on this device.',
          );
        },
        unavailable: () => undefined,
        refused: (message) => session.roomProblem(message),
      });
      room = active;
    },

    /** Leaves the room. */
    destroy(): void {
      room?.destroy();
      room = null;
    },
  };
}
