import { Decoration } from '@codemirror/view';
import { type Builder, eachLine, hidden, type NodeDecorator } from './context';
import { CALLOUT_TITLES, calloutKind, GFM_CALLOUT, lineCallouts } from './callouts';

const quoteLine = Decoration.line({ class: 'cm-lp-quote' });
const ruleLine = Decoration.line({ class: 'cm-lp-hr' });
const calloutTitle = Decoration.mark({ class: 'cm-lp-callout-title' });
const collapsed = Decoration.line({ class: 'cm-lp-collapsed' });

function calloutLine(kind: string, position: 'first' | 'body' | 'last', title?: string) {
  return Decoration.line({
    class: `cm-lp-callout cm-lp-callout-${kind} cm-lp-callout-${position}`,
    // An untitled callout's title ("Note") is drawn by CSS, so the text stays the file's.
    attributes: title ? { 'data-callout-title': title } : {},
  });
}

/**
 * Blockquotes with their bar, GitHub callouts (`> [!NOTE]`, Obsidian's `> [!tip]- Title`)
 * drawn as the site draws callouts, and horizontal rules as a rule.
 */
export const blocks: NodeDecorator = (node, builder) => {
  if (node.name === 'QuoteMark') {
    // `>` and the space after it, on every line of a quote or callout off the cursor.
    const line = builder.state.doc.lineAt(node.from);
    if (builder.revealed(line.from, line.to)) return;
    const to = builder.state.sliceDoc(node.to, node.to + 1) === ' ' ? node.to + 1 : node.to;
    builder.add(hidden.range(node.from, to));
    return;
  }
  if (node.name === 'HorizontalRule') {
    if (builder.revealed(node.from, node.to)) return;
    builder.add(ruleLine.range(builder.state.doc.lineAt(node.from).from));
    builder.add(hidden.range(node.from, node.to));
    return;
  }
  if (node.name !== 'Blockquote') return;
  const { doc } = builder.state;
  const first = doc.lineAt(node.from);
  const gfm = GFM_CALLOUT.exec(first.text);
  if (!gfm) {
    eachLine(builder, node.from, node.to, quoteLine);
    return;
  }
  const kind = calloutKind(gfm[3]!);
  const written = gfm[4]!.trim();
  const last = doc.lineAt(node.to);
  const revealedTitle = builder.revealed(first.from, first.to);
  const title = written ? undefined : (CALLOUT_TITLES[gfm[3]!.toLowerCase()] ?? gfm[3]!);
  builder.add(calloutLine(kind, 'first', revealedTitle ? undefined : title).range(first.from));
  if (last.number > first.number) {
    const toLine = Math.min(last.number, doc.lineAt(builder.range.to).number);
    for (let n = Math.max(first.number + 1, doc.lineAt(builder.range.from).number); n <= toLine; n++)
      builder.add(calloutLine(kind, n === last.number ? 'last' : 'body').range(doc.line(n).from));
  }
  const markerFrom = first.from + gfm[1]!.length;
  if (!revealedTitle) {
    builder.add(hidden.range(markerFrom, Math.min(first.to, written ? first.to - written.length : first.to)));
    if (written) builder.add(calloutTitle.range(first.to - written.length, first.to));
  }
};

/**
 * `:::note Title` … `:::` and MkDocs `!!! note "Title"` / `??? tip` callouts in lines
 * `fromLine`…`toLine`: drawn like the others, their markup hidden off the cursor.
 */
export function lineCalloutDecorations(builder: Builder, fromLine: number, toLine: number): void {
  const { doc } = builder.state;
  for (const c of lineCallouts(doc, fromLine, toLine)) {
    const open = doc.line(c.first);
    const revealed = builder.revealed(open.from, open.to);
    const untitled = c.markup >= open.length;
    builder.add(
      calloutLine(c.kind, 'first', revealed ? undefined : untitled ? c.title : undefined).range(open.from),
    );
    if (!revealed) {
      if (c.markup > 0) builder.add(hidden.range(open.from, open.from + c.markup));
      if (!untitled) builder.add(calloutTitle.range(open.from + c.markup, open.to));
    }
    for (let n = Math.max(c.first + 1, fromLine); n <= Math.min(c.last, toLine); n++) {
      const line = doc.line(n);
      builder.add(calloutLine(c.kind, n === c.last ? 'last' : 'body').range(line.from));
      if (n === c.last && c.closer && !builder.revealed(line.from, line.to) && line.length > 0) {
        builder.add(hidden.range(line.from, line.to));
        builder.add(collapsed.range(line.from));
      }
    }
  }
}
