import { EditorSelection } from '@codemirror/state';
import { EditorView } from '@codemirror/view';

/**
 * The line a link asked for (`/w/<workspace>/<page>.md?line=12`, as the quality report
 * links its findings): 1-based in the page's body, which is what the editor holds.
 */
export function requestedLine(search: string): number | null {
  const line = Number(new URLSearchParams(search).get('line'));
  return Number.isInteger(line) && line > 0 ? line : null;
}

/** Puts the cursor at the start of `line` (the last line if the page is shorter) and shows it. */
export function goToLine(view: EditorView, line: number): void {
  const target = view.state.doc.line(Math.min(line, view.state.doc.lines));
  view.dispatch({
    selection: EditorSelection.cursor(target.from),
    effects: EditorView.scrollIntoView(target.from, { y: 'center' }),
  });
  view.focus();
}
