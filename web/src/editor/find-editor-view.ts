import { EditorView } from '@codemirror/view';

/**
 * The CodeMirror view of the open page that `element` sits beside, found through the DOM,
 * so panels mounted around the editor need no reference threaded through page-editor.tsx.
 */
export function editorViewNear(element: Element | null): EditorView | null {
  const dom = element?.closest('.page-view')?.querySelector<HTMLElement>('.cm-editor');
  return dom ? EditorView.findFromDOM(dom) : null;
}
