import { syntaxTree } from '@codemirror/language';
import { forEachDiagnostic } from '@codemirror/lint';
import { type Extension, Prec, type Range } from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  EditorView,
  keymap,
  ViewPlugin,
  type ViewUpdate,
} from '@codemirror/view';
import { pageLocation } from '../page-context';
import { blocks, lineCalloutDecorations } from './blocks';
import { code } from './code';
import { type Builder, type NodeDecorator, selectedLines } from './context';
import { headingsAndInline } from './headings-and-inline';
import { embeds, images } from './images';
import { followLink } from './links';
import { listsAndTasks, toggleTaskOnCursorLine } from './lists-and-tasks';
import { tables } from './tables';
import '../../styles/live-preview.css';

const PARTS: NodeDecorator[] = [headingsAndInline, listsAndTasks, blocks, images, code];

/** The decorations of the visible text: nothing outside `view.visibleRanges` is read. */
function decorate(view: EditorView): DecorationSet {
  const { state } = view;
  const found: Range<Decoration>[] = [];
  const lines = selectedLines(state);
  const page = state.facet(pageLocation);
  const revealed = (from: number, to: number) => lines.some((l) => from <= l.to && to >= l.from);
  const warnings: { from: number; to: number }[] = [];
  forEachDiagnostic(state, (d, from, to) => void warnings.push({ from, to }));
  const flagged = (from: number, to: number) => warnings.some((w) => from <= w.to && to >= w.from);
  const tree = syntaxTree(state);
  const ranges = view.visibleRanges;
  for (const range of ranges) {
    const builder: Builder = { state, page, range, revealed, flagged, add: (d) => found.push(d) };
    tree.iterate({
      from: range.from,
      to: range.to,
      enter: (node) => {
        for (const part of PARTS) part(node, builder);
      },
    });
    for (let pos = range.from; pos <= range.to;) {
      const line = state.doc.lineAt(pos);
      embeds(builder, line);
      pos = line.to + 1;
    }
  }
  if (ranges.length > 0) {
    const all = { from: ranges[0]!.from, to: ranges[ranges.length - 1]!.to };
    const builder: Builder = { state, page, range: all, revealed, flagged, add: (d) => found.push(d) };
    lineCalloutDecorations(builder, state.doc.lineAt(all.from).number, state.doc.lineAt(all.to).number);
  }
  return Decoration.set(found, true);
}

const preview = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = decorate(view);
    }
    update(update: ViewUpdate) {
      if (
        update.docChanged ||
        update.viewportChanged ||
        update.selectionSet ||
        // New lint results (a link found missing) arrive as effects.
        update.transactions.some((tr) => tr.effects.length > 0) ||
        syntaxTree(update.state) !== syntaxTree(update.startState)
      )
        this.decorations = decorate(update.view);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/**
 * Live preview: the Markdown file drawn as formatted text, its marks hidden on every line the
 * cursor or selection is not on. Only decorations: the document is the file, byte for byte,
 * and switching the preview off or on changes nothing in it.
 */
export function livePreview(): Extension {
  return [
    preview,
    tables,
    EditorView.editorAttributes.of({ class: 'cm-live-preview' }),
    EditorView.domEventHandlers({ mousedown: followLink }),
    Prec.high(keymap.of([{ key: 'Mod-Enter', run: toggleTaskOnCursorLine }])),
  ];
}
