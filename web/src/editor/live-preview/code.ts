import { Decoration } from '@codemirror/view';
import { hidden, type NodeDecorator } from './context';

const codeLine = Decoration.line({ class: 'cm-lp-codeblock' });
const collapsed = Decoration.line({ class: 'cm-lp-collapsed' });
const fenceLine = (position: 'open' | 'close', language: string) =>
  Decoration.line({
    class: `cm-lp-codeblock cm-lp-fence cm-lp-fence-${position}`,
    attributes: language ? { 'data-language': language } : {},
  });

/**
 * Fenced code blocks on a shaded block with their language as a label, fences hidden while
 * the cursor is outside the block; the code keeps its highlighting and its text.
 */
export const code: NodeDecorator = (node, builder) => {
  if (node.name !== 'FencedCode') return;
  const { doc } = builder.state;
  const first = doc.lineAt(node.from);
  const last = doc.lineAt(node.to);
  const info = node.node.getChild('CodeInfo');
  const language = info ? builder.state.sliceDoc(info.from, info.to).trim() : '';
  const closed = last.number > first.number && /^\s*(`{3,}|~{3,})\s*$/.test(last.text);
  const revealed = builder.revealed(node.from, node.to);
  builder.add(fenceLine('open', revealed ? '' : language).range(first.from));
  // Only the visible lines of a long block.
  const fromLine = Math.max(first.number + 1, doc.lineAt(builder.range.from).number);
  const toLine = Math.min(last.number - 1, doc.lineAt(builder.range.to).number);
  for (let n = fromLine; n <= toLine; n++) builder.add(codeLine.range(doc.line(n).from));
  if (last.number > first.number) builder.add((closed ? fenceLine('close', '') : codeLine).range(last.from));
  if (revealed) return;
  if (first.length > 0) builder.add(hidden.range(first.from, first.to));
  if (closed && last.length > 0) {
    builder.add(hidden.range(last.from, last.to));
    builder.add(collapsed.range(last.from));
  }
};
