import type { EditorState } from '@codemirror/state';
import { Decoration, type EditorView, WidgetType } from '@codemirror/view';
import { hidden, type NodeDecorator } from './context';

const bullet = Decoration.mark({ class: 'cm-lp-hide cm-lp-bullet' });
const number = Decoration.mark({ class: 'cm-lp-number' });

/** A task's `[ ]` / `[x]` as a real checkbox: toggling it rewrites the one byte between the brackets. */
class TaskBox extends WidgetType {
  constructor(
    readonly checked: boolean,
    readonly label: string,
  ) {
    super();
  }

  override eq(other: TaskBox): boolean {
    return other.checked === this.checked && other.label === this.label;
  }

  toDOM(view: EditorView): HTMLElement {
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.className = 'cm-lp-task';
    box.checked = this.checked;
    box.setAttribute('aria-label', this.label || 'Task');
    box.addEventListener('change', () => {
      // The widget sits just before the task's `[`: the byte to flip is one further on.
      toggleTaskAt(view, view.posAtDOM(box));
    });
    return box;
  }

  override ignoreEvent(): boolean {
    return true;
  }
}

/**
 * Flips the task marker that starts at `pos` (`[ ]` ↔ `[x]`), changing exactly one byte.
 * False when there is no task marker there.
 */
export function toggleTaskAt(view: EditorView, pos: number): boolean {
  const marker = view.state.sliceDoc(pos, pos + 3);
  if (!/^\[[ xX]\]$/.test(marker)) return false;
  view.dispatch({
    changes: { from: pos + 1, to: pos + 2, insert: marker[1] === ' ' ? 'x' : ' ' },
    userEvent: 'input.toggle',
  });
  return true;
}

/** The start of the task marker on the line at `pos`, if the line is a task item. */
export function taskMarkerOnLine(state: EditorState, pos: number): number | null {
  const line = state.doc.lineAt(pos);
  const m = /^(\s*(?:>\s*)*(?:[-*+]|\d+[.)])\s+)\[[ xX]\]/.exec(line.text);
  return m ? line.from + m[1]!.length : null;
}

/** Mod-Enter on a task's line toggles it, so the keyboard reaches every checkbox from the text. */
export function toggleTaskOnCursorLine(view: EditorView): boolean {
  const at = taskMarkerOnLine(view.state, view.state.selection.main.head);
  return at !== null && toggleTaskAt(view, at);
}

/** Bullets for `-`/`*`/`+`, styled numbers for `1.`, checkboxes for `[ ]` and `[x]`. */
export const listsAndTasks: NodeDecorator = (node, builder) => {
  if (node.name === 'ListMark') {
    const list = node.node.parent?.parent;
    if (list?.name === 'OrderedList') return builder.add(number.range(node.from, node.to));
    if (list?.name !== 'BulletList' || builder.revealed(node.from, node.to)) return;
    // A task item shows its checkbox in place of the bullet.
    const task = node.node.parent?.getChild('Task');
    builder.add((task ? hidden : bullet).range(node.from, node.to));
    return;
  }
  if (node.name === 'TaskMarker') {
    if (builder.revealed(node.from, node.to)) return;
    const { state } = builder;
    const checked = /x/i.test(state.sliceDoc(node.from, node.to));
    const label = state.doc
      .lineAt(node.to)
      .text.slice(node.to - state.doc.lineAt(node.to).from)
      .trim();
    builder.add(Decoration.widget({ widget: new TaskBox(checked, label), side: -1 }).range(node.from));
    builder.add(hidden.range(node.from, node.to));
  }
};
