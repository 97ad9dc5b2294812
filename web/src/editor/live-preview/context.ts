import type { EditorState, Range } from '@codemirror/state';
import { Decoration } from '@codemirror/view';
import type { SyntaxNodeRef } from '@lezer/common';

/**
 * What a live-preview part sees while the decorations of the visible text are built: the
 * state, whether a range is on a line the writer's cursor or selection touches (where the
 * Markdown stays visible), and where to put its decorations.
 */
export interface Builder {
  readonly state: EditorState;
  /** The open page's workspace and path, for resolving images. */
  readonly page: { slug: string; path: string };
  /** The visible range being decorated: per-line work outside it is skipped. */
  readonly range: { from: number; to: number };
  /** True when a cursor or selection touches one of the lines of `from`…`to`. */
  revealed(from: number, to: number): boolean;
  /** True when a lint warning (a link to a missing page) lies in `from`…`to`: kept in sight. */
  flagged(from: number, to: number): boolean;
  add(range: Range<Decoration>): void;
}

/** A part of the live preview: called for each syntax node in the visible ranges. */
export type NodeDecorator = (node: SyntaxNodeRef, builder: Builder) => void;

/**
 * Hides Markdown marks off the cursor's lines. The characters stay in the DOM at zero size
 * (not replaced), so the textbox's text is still the Markdown file: screen readers read it,
 * copying copies it, and moving onto the line shows it again.
 */
export const hidden = Decoration.mark({ class: 'cm-lp-hide' });

/** The line decoration `deco` on every visible line from `from` to `to`. */
export function eachLine(builder: Builder, from: number, to: number, deco: Decoration): void {
  const { doc } = builder.state;
  const end = Math.min(to, builder.range.to);
  for (let pos = Math.max(from, doc.lineAt(builder.range.from).from); pos <= end;) {
    const line = doc.lineAt(pos);
    builder.add(deco.range(line.from));
    pos = line.to + 1;
  }
}

/** The ranges of the lines the selection touches, in document order. */
export function selectedLines(state: EditorState): { from: number; to: number }[] {
  return state.selection.ranges.map((r) => ({
    from: state.doc.lineAt(r.from).from,
    to: state.doc.lineAt(r.to).to,
  }));
}
