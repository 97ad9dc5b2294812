import { syntaxTree } from '@codemirror/language';
import { type EditorState, type Range, StateField } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView, WidgetType } from '@codemirror/view';
import {
  addColumnChanges,
  addRowChange,
  alignChanges,
  cellMarkdown,
  parseTable,
  type TableRow,
} from './table-model';

/** Nodes a table can sit in at the start of a line; everything else is not searched. */
const CONTAINERS = new Set(['Document', 'BulletList', 'OrderedList', 'ListItem']);

/** The rows of the table whose widget starts at `pos`, read from the document as it is now. */
function tableAt(state: EditorState, pos: number): TableRow[] | null {
  for (
    let node: ReturnType<typeof syntaxTree>['topNode'] | null = syntaxTree(state).resolve(pos, 1);
    node;
    node = node.parent
  )
    if (node.name === 'Table') return parseTable(state.doc, node.from, node.to);
  return null;
}

/**
 * A GFM table drawn as a `<table>` of one-line text fields. Typing in a field replaces that
 * cell's text in its source row, and nothing else; Tab and Shift+Tab move between cells
 * (Tab in the last cell adds a row), Enter goes down a row, Escape shows the Markdown. Add
 * row, Add column and Align columns are buttons under the table.
 */
class TableWidget extends WidgetType {
  constructor(readonly rows: readonly { cells: string[]; delimiter: boolean }[]) {
    super();
  }

  private get shape(): string {
    return this.rows.map((r) => r.cells.length).join(',');
  }

  override eq(other: TableWidget): boolean {
    return JSON.stringify(other.rows) === JSON.stringify(this.rows);
  }

  override get estimatedHeight(): number {
    return this.rows.length * 34 + 44;
  }

  toDOM(view: EditorView): HTMLElement {
    const wrap = document.createElement('div');
    wrap.className = 'cm-lp-table';
    const table = document.createElement('table');
    const head = table.createTHead();
    const body = table.createTBody();
    const header = this.rows[0]?.cells ?? [];
    let r = 0;
    for (const [index, row] of this.rows.entries()) {
      if (row.delimiter) continue;
      const tr = (index === 0 ? head : body).insertRow();
      row.cells.forEach((text, c) => {
        const cell = document.createElement(index === 0 ? 'th' : 'td');
        const input = document.createElement('input');
        input.type = 'text';
        input.value = text;
        input.dataset.row = String(index);
        input.dataset.col = String(c);
        const column = header[c] || `Column ${c + 1}`;
        input.setAttribute('aria-label', index === 0 ? `Column ${c + 1} heading` : `${column}, row ${r}`);
        cell.append(input);
        tr.append(cell);
      });
      r++;
    }
    wrap.addEventListener('input', (event) => {
      const input = event.target as HTMLInputElement;
      editCell(view, wrap, Number(input.dataset.row), Number(input.dataset.col), input.value);
    });
    wrap.addEventListener('keydown', (event) => onKey(view, wrap, event));
    const actions = document.createElement('div');
    actions.className = 'cm-lp-table-actions';
    const button = (label: string, run: (rows: TableRow[]) => void) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'button small ghost';
      b.textContent = label;
      b.addEventListener('click', () => {
        const rows = tableAt(view.state, view.posAtDOM(wrap));
        if (rows) run(rows);
      });
      actions.append(b);
    };
    button('Add row', (rows) => addRow(view, wrap, rows, 0));
    button('Add column', (rows) => {
      const at = view.posAtDOM(wrap);
      view.dispatch({ changes: addColumnChanges(rows), userEvent: 'input.table' });
      focusCell(view, at, 0, rows[0]!.cells.length);
    });
    button('Align columns', (rows) =>
      view.dispatch({ changes: alignChanges(rows), userEvent: 'input.table' }),
    );
    wrap.append(table, actions);
    return wrap;
  }

  override updateDOM(dom: HTMLElement, view: EditorView, from?: WidgetType): boolean {
    if (!(from instanceof TableWidget) || from.shape !== this.shape) return false;
    // The same table after an edit: new text into the fields, except the one being typed in.
    for (const input of dom.querySelectorAll<HTMLInputElement>('input')) {
      const text = this.rows[Number(input.dataset.row)]?.cells[Number(input.dataset.col)] ?? '';
      if (input !== dom.ownerDocument.activeElement && input.value !== text) input.value = text;
    }
    void view;
    return true;
  }
}

function editCell(view: EditorView, wrap: HTMLElement, row: number, col: number, value: string): void {
  const cell = tableAt(view.state, view.posAtDOM(wrap))?.[row]?.cells[col];
  if (!cell) return;
  view.dispatch({
    changes: { from: cell.from, to: cell.to, insert: cellMarkdown(value) },
    userEvent: 'input.type',
  });
}

function addRow(view: EditorView, wrap: HTMLElement, rows: TableRow[], col: number): void {
  const at = view.posAtDOM(wrap);
  view.dispatch({ changes: addRowChange(rows), userEvent: 'input.table' });
  focusCell(view, at, rows.length, col);
}

/**
 * Focuses a cell of the table at `at`. CodeMirror has drawn the change by the time
 * `dispatch` returns, so this runs at once, before the writer's next key.
 */
function focusCell(view: EditorView, at: number, row: number, col: number): void {
  for (const wrap of view.contentDOM.querySelectorAll<HTMLElement>('.cm-lp-table'))
    if (view.posAtDOM(wrap) === at)
      wrap.querySelector<HTMLInputElement>(`input[data-row="${row}"][data-col="${col}"]`)?.focus();
}

function onKey(view: EditorView, wrap: HTMLElement, event: KeyboardEvent): void {
  const input = event.target as HTMLElement;
  if (!(input instanceof HTMLInputElement)) return;
  const fields = [...wrap.querySelectorAll<HTMLInputElement>('input')];
  const index = fields.indexOf(input);
  const row = Number(input.dataset.row);
  const col = Number(input.dataset.col);
  const rows = () => tableAt(view.state, view.posAtDOM(wrap));
  if (event.key === 'Tab') {
    const next = fields[index + (event.shiftKey ? -1 : 1)];
    if (next) next.focus();
    else if (!event.shiftKey) {
      const current = rows();
      if (current) addRow(view, wrap, current, 0);
    } else return;
    event.preventDefault();
  } else if (event.key === 'Enter') {
    event.preventDefault();
    const below = wrap.querySelector<HTMLInputElement>(
      `input[data-row="${row === 0 ? 2 : row + 1}"][data-col="${col}"]`,
    );
    if (below) below.focus();
    else {
      const current = rows();
      if (current) addRow(view, wrap, current, col);
    }
  } else if (event.key === 'Escape') {
    // Back to the text, the cursor in this cell's source: the table shows its Markdown.
    event.preventDefault();
    const cell = rows()?.[row]?.cells[col];
    view.focus();
    if (cell) view.dispatch({ selection: { anchor: cell.to }, scrollIntoView: true });
  }
}

function tableDecorations(state: EditorState): DecorationSet {
  const found: Range<Decoration>[] = [];
  const selected = state.selection.ranges;
  syntaxTree(state).iterate({
    enter: (node) => {
      if (node.name !== 'Table') return CONTAINERS.has(node.name);
      const first = state.doc.lineAt(node.from);
      const last = state.doc.lineAt(node.to);
      // Only a table on lines of its own (not in a quote) becomes a widget.
      if (first.from !== node.from || last.to !== node.to) return false;
      if (selected.some((r) => r.from <= last.to && r.to >= first.from)) return false;
      const rows = parseTable(state.doc, node.from, node.to).map((r) => ({
        cells: r.cells.map((c) => c.text),
        delimiter: r.delimiter,
      }));
      found.push(
        Decoration.replace({ widget: new TableWidget(rows), block: true }).range(node.from, node.to),
      );
      return false;
    },
  });
  return Decoration.set(found);
}

/**
 * Tables drawn as tables off the cursor (a state field: CodeMirror draws multi-line
 * replacements only from state). Recomputed when the text, the selection or the parse moves.
 */
export const tables = StateField.define<DecorationSet>({
  create: tableDecorations,
  update(decorations, tr) {
    if (tr.docChanged || tr.selection || syntaxTree(tr.state) !== syntaxTree(tr.startState))
      return tableDecorations(tr.state);
    return decorations;
  },
  provide: (field) => EditorView.decorations.from(field),
});
