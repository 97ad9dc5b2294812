import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { markdownSupport } from './markdown-language';
import { useEffect, useMemo, useRef } from 'react';
import type { Conflict } from './page-session';
import { cspNonce } from './csp-nonce';
import { mergeThreeWay } from './raw-text';

interface MergePanelProps {
  conflict: Conflict;
  onResolve: (text: string) => void;
}

/**
 * The conflict view: on the left the merge the writer will save (their own
 * changes applied on top of the other version where the two do not overlap,
 * else their own text), on the right the version now on the server. Arrows
 * take chunks from the right; the left is editable. Nothing is saved until
 * the writer chooses.
 */
export function MergePanel({ conflict, onResolve }: MergePanelProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<MergeView | null>(null);
  const merged = useMemo(
    () =>
      conflict.base === null
        ? { text: conflict.mine, clean: false }
        : mergeThreeWay(conflict.base, conflict.mine, conflict.theirs.doc),
    [conflict],
  );

  useEffect(() => {
    const label = (name: string) => EditorView.contentAttributes.of({ 'aria-label': name });
    const mergeView = new MergeView({
      a: {
        doc: merged.text,
        extensions: [cspNonce, markdownSupport(), EditorView.lineWrapping, label('Merged text')],
      },
      b: {
        doc: conflict.theirs.doc,
        extensions: [
          cspNonce,
          markdownSupport(),
          EditorView.lineWrapping,
          EditorState.readOnly.of(true),
          EditorView.editable.of(false),
          label('Their version'),
        ],
      },
      parent: host.current!,
      revertControls: 'b-to-a',
      highlightChanges: true,
      gutter: true,
    });
    view.current = mergeView;
    return () => mergeView.destroy();
  }, [conflict, merged]);

  const mergedText = () => view.current?.a.state.doc.toString() ?? merged.text;
  return (
    <section className="merge-panel" aria-labelledby="merge-title">
      <header className="merge-header">
        <div>
          <h2 id="merge-title">Someone else changed this page</h2>
          <p>
            {merged.clean
              ? 'Your changes and theirs do not overlap: the left side holds both. Check it and save.'
              : 'Your changes and theirs overlap. Edit the left side into the text you want, then save.'}
          </p>
        </div>
        <div className="merge-actions">
          <button type="button" className="button" onClick={() => onResolve(conflict.theirs.doc)}>
            Keep theirs
          </button>
          <button type="button" className="button" onClick={() => onResolve(conflict.mine)}>
            Keep mine
          </button>
          <button type="button" className="button primary" onClick={() => onResolve(mergedText())}>
            Save merge
          </button>
        </div>
      </header>
      <div className="merge-columns" aria-hidden="true">
        <span>Merged (yours)</span>
        <span>Theirs (on the server)</span>
      </div>
      <div className="merge-host" ref={host} />
    </section>
  );
}
