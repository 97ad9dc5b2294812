import {
  type Completion,
  type CompletionContext,
  type CompletionResult,
  startCompletion,
} from '@codemirror/autocomplete';
import type { EditorView } from '@codemirror/view';
import { chooseImages } from './image-upload';
import { CALLOUT, CODE_BLOCK, insertBlock, isInCode, TABLE } from './markdown-edits';

/** What a command does with the `/word` it replaces (`from`…`to`). */
type Run = (view: EditorView, from: number, to: number) => void;

/**
 * Replaces the `/word` with a line prefix (`## `, `- `), on a new line when the `/` came
 * after text, so the prefix starts a line and means what it says.
 */
const linePrefix =
  (prefix: string): Run =>
  (view, from, to) => {
    const line = view.state.doc.lineAt(from);
    const insert = (view.state.sliceDoc(line.from, from).trim() ? '\n' : '') + prefix;
    view.dispatch({
      changes: { from, to, insert },
      selection: { anchor: from + insert.length },
      userEvent: 'input.complete',
    });
  };

const block =
  (text: string, cursor: number): Run =>
  (view, from, to) =>
    void insertBlock(view, text, cursor, from, to);

const COMMANDS: { label: string; detail: string; run: Run }[] = [
  { label: 'Heading 1', detail: '#', run: linePrefix('# ') },
  { label: 'Heading 2', detail: '##', run: linePrefix('## ') },
  { label: 'Heading 3', detail: '###', run: linePrefix('### ') },
  { label: 'Bulleted list', detail: '-', run: linePrefix('- ') },
  { label: 'Numbered list', detail: '1.', run: linePrefix('1. ') },
  { label: 'To-do list', detail: '- [ ]', run: linePrefix('- [ ] ') },
  { label: 'Quote', detail: '>', run: linePrefix('> ') },
  { label: 'Callout', detail: '> [!NOTE]', run: block(CALLOUT.text, CALLOUT.cursor) },
  { label: 'Code block', detail: '```', run: block(CODE_BLOCK.text, CODE_BLOCK.cursor) },
  { label: 'Table', detail: '| |', run: block(TABLE.text, TABLE.cursor) },
  { label: 'Divider', detail: '---', run: block('---\n', 4) },
  {
    label: 'Image',
    detail: 'upload',
    run: (view, from, to) => {
      view.dispatch({ changes: { from, to }, userEvent: 'delete' });
      chooseImages(view);
    },
  },
  {
    label: 'Link to page',
    detail: '[[',
    run: (view, from, to) => {
      // Typing `[[` is what lists the pages (page-links.ts); this does the typing.
      view.dispatch({ changes: { from, to, insert: '[[' }, selection: { anchor: from + 2 } });
      startCompletion(view);
    },
  },
];

// Listed in this order until the writer types: then the best match comes first.
const OPTIONS: Completion[] = COMMANDS.map(({ label, detail, run }, i) => ({
  label,
  detail,
  sortText: String(i).padStart(2, '0'),
  // `from` is just after the `/`, which goes too.
  apply: (view, _completion, from, to) => run(view, from - 1, to),
}));

/**
 * `/` at the start of a line or after a space lists the block commands, filtered by what
 * follows it (`/h2`, `/table`). Not inside code, and not in `and/or` or a URL.
 */
export function slashCommands(context: CompletionContext): CompletionResult | null {
  const match = context.matchBefore(/(?:^|\s)\/[\w-]*$/);
  if (!match || isInCode(context.state, context.pos)) return null;
  const slash = match.from + match.text.lastIndexOf('/');
  return { from: slash + 1, options: OPTIONS, validFor: /^[\w-]*$/ };
}
