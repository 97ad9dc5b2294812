import { Decoration } from '@codemirror/view';
import { type Builder, hidden, type NodeDecorator } from './context';

const headingLines = [1, 2, 3, 4, 5, 6].map((n) => Decoration.line({ class: `cm-lp-h cm-lp-h${n}` }));
const inlineCode = Decoration.mark({ class: 'cm-lp-inline-code' });
const linkText = Decoration.mark({ class: 'cm-lp-link' });

/** Marks whose characters disappear off the cursor's lines, each with its parent node. */
const INLINE_MARKS: Record<string, string> = {
  Emphasis: 'EmphasisMark',
  StrongEmphasis: 'EmphasisMark',
  Strikethrough: 'StrikethroughMark',
};

function hideChildren(node: Parameters<NodeDecorator>[0], names: Set<string>, builder: Builder): void {
  for (let child = node.node.firstChild; child; child = child.nextSibling)
    if (names.has(child.name) && child.to > child.from) builder.add(hidden.range(child.from, child.to));
}

/**
 * Headings at their level's size without their `#`s; bold, italic, strike and inline code
 * without their marks; links as their text (Ctrl/Cmd+click follows them, see links.ts)
 * without the URL.
 */
export const headingsAndInline: NodeDecorator = (node, builder) => {
  const heading = /^ATXHeading(\d)$/.exec(node.name) ?? /^SetextHeading(\d)$/.exec(node.name);
  if (heading) {
    builder.add(headingLines[Number(heading[1]) - 1]!.range(builder.state.doc.lineAt(node.from).from));
    if (builder.revealed(node.from, node.to) || node.name.startsWith('Setext')) return;
    for (let mark = node.node.firstChild; mark; mark = mark.nextSibling) {
      if (mark.name !== 'HeaderMark') continue;
      // The opening `## ` goes with its space; a closing `##` with the space before it.
      const atStart = mark.from === node.from;
      const from = atStart ? mark.from : Math.max(node.from, mark.from - 1);
      const to = atStart ? Math.min(node.to, mark.to + 1) : mark.to;
      if (to > from) builder.add(hidden.range(from, to));
    }
    return;
  }
  const mark = INLINE_MARKS[node.name];
  if (mark) {
    if (!builder.revealed(node.from, node.to)) hideChildren(node, new Set([mark]), builder);
    return;
  }
  if (node.name === 'InlineCode') {
    builder.add(inlineCode.range(node.from, node.to));
    if (!builder.revealed(node.from, node.to)) hideChildren(node, new Set(['CodeMark']), builder);
    return;
  }
  if (node.name === 'Link' || node.name === 'Autolink') {
    const marks = node.node.getChildren('LinkMark');
    const open = marks[0];
    const close = marks[1];
    if (open && close && close.from > open.to) builder.add(linkText.range(open.to, close.from));
    if (builder.revealed(node.from, node.to) || builder.flagged(node.from, node.to)) return;
    if (node.name === 'Autolink') return hideChildren(node, new Set(['LinkMark']), builder);
    // `[` hidden; from `]` to the end (URL, title, reference label) hidden.
    if (open) builder.add(hidden.range(open.from, open.to));
    if (close) builder.add(hidden.range(close.from, node.to));
  }
};
