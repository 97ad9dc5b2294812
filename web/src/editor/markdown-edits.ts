import { syntaxTree } from '@codemirror/language';
import { EditorSelection, type EditorState } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import type { SyntaxNode } from '@lezer/common';

/**
 * The Markdown the toolbar and the slash commands write. Each edit inserts only the
 * characters the writer asked for, as one undoable step, and leaves the cursor (or a
 * selected placeholder) where the writer types next.
 */

/**
 * Wraps each selection in `before` … `after` (`**bold**`). An empty selection gets
 * `placeholder` between the marks, selected, so typing replaces it.
 */
export function wrapSelection(view: EditorView, before: string, after: string, placeholder: string): boolean {
  view.dispatch(
    view.state.changeByRange((range) => {
      const inner = range.empty ? placeholder : view.state.sliceDoc(range.from, range.to);
      const start = range.from + before.length;
      return {
        changes: { from: range.from, to: range.to, insert: before + inner + after },
        range: EditorSelection.range(start, start + inner.length),
      };
    }),
    { scrollIntoView: true, userEvent: 'input.format' },
  );
  view.focus();
  return true;
}

/**
 * Starts every selected line with a prefix (`> `, `- `); `numbered` writes `1. `, `2. `, ….
 * A heading prefix replaces the `#`s a line already has rather than adding more.
 */
export function prefixLines(view: EditorView, prefix: string | 'numbered'): boolean {
  const { state } = view;
  const changes: { from: number; to?: number; insert: string }[] = [];
  let lastLine = -1;
  let n = 0;
  for (const range of state.selection.ranges) {
    for (let pos = range.from; pos <= range.to;) {
      const line = state.doc.lineAt(pos);
      // A selection of whole lines ends at the start of the next one, which stays as it is.
      if (pos > range.from && line.from === range.to) break;
      if (line.number > lastLine) {
        lastLine = line.number;
        n += 1;
        const text = prefix === 'numbered' ? `${n}. ` : prefix;
        const heading = /^#{1,6} /.exec(line.text);
        const replaced = text.startsWith('#') && heading ? heading[0].length : 0;
        changes.push({ from: line.from, to: line.from + replaced, insert: text });
      }
      pos = line.to + 1;
    }
  }
  view.dispatch({ changes, scrollIntoView: true, userEvent: 'input.format' });
  view.focus();
  return true;
}

/**
 * Puts a block (a table, a code fence, a divider) on lines of its own at `from`…`to`,
 * with a blank line before it when the line above has text (so `---` is never read as
 * a heading underline), and the cursor `cursor` characters into the block.
 */
export function insertBlock(
  view: EditorView,
  block: string,
  cursor: number,
  from?: number,
  to?: number,
): boolean {
  const { state } = view;
  const start = from ?? state.selection.main.from;
  const end = to ?? state.selection.main.to;
  const lead = blockLead(state, start);
  const line = state.doc.lineAt(end);
  const trail = end < line.to ? '\n' : '';
  view.dispatch({
    changes: { from: start, to: end, insert: lead + block + trail },
    selection: { anchor: start + lead.length + cursor },
    scrollIntoView: true,
    userEvent: 'input.format',
  });
  view.focus();
  return true;
}

/** The line breaks a block needs before it at `pos`: none on an empty line under a blank one. */
function blockLead(state: EditorState, pos: number): string {
  const line = state.doc.lineAt(pos);
  if (state.sliceDoc(line.from, pos).trim()) return '\n\n';
  const above = line.number > 1 ? state.doc.line(line.number - 1).text : '';
  return above.trim() ? '\n' : '';
}

/**
 * `[text](https://)` around each selection (`link text` when empty), with the part the
 * writer fills in next selected: the URL when there was text, else the text.
 */
export function insertLink(view: EditorView): boolean {
  view.dispatch(
    view.state.changeByRange((range) => {
      const text = range.empty ? 'link text' : view.state.sliceDoc(range.from, range.to);
      const url = 'https://';
      const insert = `[${text}](${url})`;
      const select = range.empty
        ? EditorSelection.range(range.from + 1, range.from + 1 + text.length)
        : EditorSelection.range(range.from + text.length + 3, range.from + text.length + 3 + url.length);
      return { changes: { from: range.from, to: range.to, insert }, range: select };
    }),
    { scrollIntoView: true, userEvent: 'input.format' },
  );
  view.focus();
  return true;
}

/** Code: backticks around a selection within one line, a fenced block around several lines. */
export function formatCode(view: EditorView): boolean {
  const { state } = view;
  const main = state.selection.main;
  if (state.doc.lineAt(main.from).number === state.doc.lineAt(main.to).number)
    return wrapSelection(view, '`', '`', 'code');
  const fenced = '```\n' + state.sliceDoc(main.from, main.to) + '\n```';
  return insertBlock(view, fenced, 4, main.from, main.to);
}

/** A two-column table, the cursor in the first header cell. */
export const TABLE = { text: '| Column 1 | Column 2 |\n| --- | --- |\n|  |  |', cursor: 2 };

/** A note callout (as the site draws it), the cursor on its first line of text. */
export const CALLOUT = { text: '> [!NOTE]\n> ', cursor: 12 };

/** A fenced code block, the cursor on its empty first line. */
export const CODE_BLOCK = { text: '```\n\n```', cursor: 4 };

const CODE_NODES = new Set([
  'FencedCode',
  'CodeBlock',
  'InlineCode',
  'CodeText',
  'HTMLBlock',
  'CommentBlock',
]);

/** True inside code (and raw HTML), where `/` and `[[` are text, not commands. */
export function isInCode(state: EditorState, pos: number): boolean {
  for (let node: SyntaxNode | null = syntaxTree(state).resolveInner(pos, -1); node; node = node.parent)
    if (CODE_NODES.has(node.name)) return true;
  return false;
}
