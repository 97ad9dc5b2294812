import { RangeSetBuilder } from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  type EditorView,
  ViewPlugin,
  type ViewUpdate,
  WidgetType,
} from '@codemirror/view';
import * as Y from 'yjs';
import type { Awareness } from 'y-protocols/awareness';
import '../styles/coedit.css';

/** How many cursor colours the stylesheet has (`coedit-colour-0` …). */
export const CURSOR_COLOURS = 8;

interface CursorState {
  user?: { name?: string; colour?: number };
  cursor?: { anchor: unknown; head: unknown } | null;
}

class CaretWidget extends WidgetType {
  constructor(
    readonly name: string,
    readonly colour: number,
  ) {
    super();
  }
  toDOM(): HTMLElement {
    const caret = document.createElement('span');
    caret.className = `coedit-caret coedit-colour-${this.colour}`;
    // The name is for sighted writers beside the text; screen readers get who is here from presence.
    caret.setAttribute('aria-hidden', 'true');
    const label = document.createElement('span');
    label.className = 'coedit-caret-name';
    label.textContent = this.name;
    caret.append(label);
    return caret;
  }
  override eq(other: CaretWidget): boolean {
    return other.name === this.name && other.colour === this.colour;
  }
  override ignoreEvent(): boolean {
    return true;
  }
}

/**
 * The other writers' cursors and selections, named and coloured, and this
 * editor's own cursor published to the room. Like y-codemirror.next's own
 * (same awareness `cursor` field, Yjs relative positions), but drawn with
 * classes: its inline `style` attributes are refused by the app's CSP.
 */
export function remoteCursors(ytext: Y.Text, awareness: Awareness) {
  return ViewPlugin.fromClass(
    class {
      decorations: DecorationSet = Decoration.none;
      private readonly onChange: () => void;

      constructor(private readonly view: EditorView) {
        this.onChange = () => queueMicrotask(() => this.view.dispatch({}));
        awareness.on('change', this.onChange);
        this.decorations = this.build();
      }

      update(update: ViewUpdate): void {
        this.publish(update);
        this.decorations = this.build();
      }

      private publish(update: ViewUpdate): void {
        const local = awareness.getLocalState() as CursorState | null;
        if (!local) return;
        const focused = update.view.hasFocus && update.view.dom.ownerDocument.hasFocus();
        if (!focused) return;
        const sel = update.state.selection.main;
        const anchor = Y.createRelativePositionFromTypeIndex(ytext, sel.anchor);
        const head = Y.createRelativePositionFromTypeIndex(ytext, sel.head);
        const same =
          local.cursor &&
          Y.compareRelativePositions(Y.createRelativePositionFromJSON(local.cursor.anchor), anchor) &&
          Y.compareRelativePositions(Y.createRelativePositionFromJSON(local.cursor.head), head);
        if (!same) awareness.setLocalStateField('cursor', { anchor, head });
      }

      private build(): DecorationSet {
        const doc = ytext.doc;
        if (!doc) return Decoration.none;
        const ranges: Array<{ from: number; to: number; deco: Decoration }> = [];
        const length = this.view.state.doc.length;
        awareness.getStates().forEach((raw, clientId) => {
          const state = raw as CursorState;
          if (clientId === doc.clientID || !state.cursor) return;
          const anchor = Y.createAbsolutePositionFromRelativePosition(
            Y.createRelativePositionFromJSON(state.cursor.anchor),
            doc,
          );
          const head = Y.createAbsolutePositionFromRelativePosition(
            Y.createRelativePositionFromJSON(state.cursor.head),
            doc,
          );
          if (!anchor || !head || anchor.type !== ytext || head.type !== ytext) return;
          const colour = Math.abs(Number(state.user?.colour ?? 0)) % CURSOR_COLOURS;
          const from = Math.min(anchor.index, head.index, length);
          const to = Math.min(Math.max(anchor.index, head.index), length);
          if (from < to) {
            ranges.push({
              from,
              to,
              deco: Decoration.mark({ class: `coedit-selection coedit-colour-${colour}` }),
            });
          }
          const at = Math.min(head.index, length);
          const widget = new CaretWidget(state.user?.name ?? 'Someone', colour);
          ranges.push({
            from: at,
            to: at,
            deco: Decoration.widget({ widget, side: head.index > anchor.index ? -1 : 1 }),
          });
        });
        ranges.sort((a, b) => a.from - b.from || a.to - b.to);
        const builder = new RangeSetBuilder<Decoration>();
        for (const r of ranges) builder.add(r.from, r.to, r.deco);
        return builder.finish();
      }

      destroy(): void {
        awareness.off('change', this.onChange);
      }
    },
    { decorations: (plugin) => plugin.decorations },
  );
}
