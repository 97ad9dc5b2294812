import type { Text } from '@codemirror/state';

/** One cell of a GFM table row: where its text is in the document, and the text shown. */
export interface TableCell {
  /** Document range of the cell's text without its padding (empty cells: where typing goes). */
  from: number;
  to: number;
  /** The text with `\|` shown as `|`. */
  text: string;
}

export interface TableRow {
  line: { from: number; to: number; text: string };
  cells: TableCell[];
  delimiter: boolean;
}

/** Positions of the `|`s in `text` that separate cells (not the escaped `\|`). */
function pipes(text: string): number[] {
  const found: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '|') found.push(i);
  }
  return found;
}

/** The cells of one row line starting at document position `from`. */
export function rowCells(text: string, from: number): TableCell[] {
  const bars = pipes(text);
  const bounds: number[] = [];
  // A row may start and end with `|`, or not.
  if (text.trimStart().startsWith('|')) bounds.push(bars.shift()!);
  else bounds.push(-1);
  const trailing = text.trimEnd().endsWith('|') && bars.length > 0 ? bars.pop()! : text.length;
  bounds.push(...bars, trailing);
  const cells: TableCell[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const start = bounds[i]! + 1;
    const end = bounds[i + 1]!;
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const content = raw.trim();
    const at = content ? start + lead : start + Math.min(1, raw.length);
    cells.push({ from: from + at, to: from + at + content.length, text: content.replace(/\\\|/g, '|') });
  }
  return cells;
}

/** The rows of the table on lines `from`…`to` of `doc`. */
export function parseTable(doc: Text, from: number, to: number): TableRow[] {
  const rows: TableRow[] = [];
  for (let pos = from; pos <= to;) {
    const line = doc.lineAt(pos);
    rows.push({
      line: { from: line.from, to: line.to, text: line.text },
      cells: rowCells(line.text, line.from),
      delimiter: rows.length === 1,
    });
    pos = line.to + 1;
  }
  return rows;
}

/** A cell's text as Markdown: a `|` typed into a cell is escaped so it stays in the cell. */
export const cellMarkdown = (text: string): string =>
  text.replace(/\r?\n/g, ' ').replace(/(?<!\\)\|/g, '\\|');

/** The changes that add an empty row under the table. */
export function addRowChange(rows: TableRow[]): { from: number; insert: string } {
  const columns = Math.max(1, rows[0]?.cells.length ?? 1);
  const last = rows[rows.length - 1]!;
  return { from: last.line.to, insert: `\n|${'  |'.repeat(columns)}` };
}

/** The changes that add an empty column at the right of every row. */
export function addColumnChanges(rows: TableRow[]): { from: number; insert: string }[] {
  return rows.map((row) => {
    const piped = row.line.text.trimEnd().endsWith('|');
    const cell = row.delimiter ? ' --- |' : '  |';
    const end = row.line.from + row.line.text.trimEnd().length;
    return { from: end, insert: piped ? cell : ` |${cell}` };
  });
}

/**
 * The changes that pad every column to its widest cell (`| Name  | Age |`). Only on request:
 * editing a cell never re-pads the others.
 */
export function alignChanges(rows: TableRow[]): { from: number; to: number; insert: string }[] {
  const columns = Math.max(...rows.map((r) => r.cells.length));
  const raw = (row: TableRow, c: number) => {
    const cell = row.cells[c];
    return cell ? row.line.text.slice(cell.from - row.line.from, cell.to - row.line.from) : '';
  };
  const widths = Array.from({ length: columns }, (_, c) =>
    Math.max(3, ...rows.filter((r) => !r.delimiter).map((r) => raw(r, c).length)),
  );
  const changes: { from: number; to: number; insert: string }[] = [];
  for (const row of rows) {
    const cells = widths.map((w, c) => {
      if (!row.delimiter) return raw(row, c).padEnd(w);
      const d = raw(row, c);
      const left = d.startsWith(':');
      const right = d.endsWith(':') && d.length > 1;
      return (left ? ':' : '') + '-'.repeat(w - (left ? 1 : 0) - (right ? 1 : 0)) + (right ? ':' : '');
    });
    const indent = /^\s*/.exec(row.line.text)![0];
    const text = `${indent}| ${cells.join(' | ')} |`;
    if (text !== row.line.text) changes.push({ from: row.line.from, to: row.line.to, insert: text });
  }
  return changes;
}
