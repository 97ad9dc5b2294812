import { MergeView } from '@codemirror/merge';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { cspNonce } from '../../editor/csp-nonce';
import { markdownSupport } from '../../editor/markdown-language';

interface ConflictDiffProps {
  ours: string;
  theirs: string;
  /** Editing: the left side becomes the merge to save, and arrows take chunks from the right. */
  editing: boolean;
  /** Reads the left side's text, for "Save merge". */
  bindText: (read: () => string) => void;
}

const side = (name: string, editable: boolean): Extension[] => [
  cspNonce,
  markdownSupport(),
  EditorView.lineWrapping,
  EditorView.contentAttributes.of({ 'aria-label': name }),
  ...(editable ? [] : [EditorState.readOnly.of(true), EditorView.editable.of(false)]),
];

/**
 * Ours and theirs side by side, changes highlighted (CodeMirror's merge view, as in the
 * editor's conflict view). Loaded only when a conflict is opened.
 */
export default function ConflictDiff({ ours, theirs, editing, bindText }: ConflictDiffProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const view = new MergeView({
      a: { doc: ours, extensions: side(editing ? 'Merged text' : 'Ours, in Folio', editing) },
      b: { doc: theirs, extensions: side('Theirs, on the remote', false) },
      parent: host.current!,
      ...(editing ? { revertControls: 'b-to-a' as const } : {}),
      highlightChanges: true,
      gutter: true,
    });
    bindText(() => view.a.state.doc.toString());
    return () => view.destroy();
  }, [ours, theirs, editing, bindText]);
  return (
    <>
      <div className="merge-columns" aria-hidden="true">
        <span>{editing ? 'Merged (starts as ours)' : 'Ours (in Folio)'}</span>
        <span>Theirs (on the remote)</span>
      </div>
      <div className="merge-host" ref={host} />
    </>
  );
}
