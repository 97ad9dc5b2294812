import { EditorView } from '@codemirror/view';
import { EditorState, Transaction } from '@codemirror/state';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useTree } from '../api/queries';
import type { Page } from '../api/types';
import { editorExtensions } from './editor-extensions';
import { textToSave } from './image-upload';
import { pagesOfTree, setWorkspacePages } from './page-context';
import { PageSession, type SessionState } from './page-session';
import { changesBetween } from './raw-text';
import { Toolbar } from './toolbar';

interface PageEditorProps {
  slug: string;
  path: string;
  page: Page;
  readOnly: boolean;
  hidden: boolean;
  sessionRef: RefObject<PageSession | null>;
  /** A state setter: stable for the life of the editor. */
  onState: (state: SessionState) => void;
}

/** CodeMirror on the page body, wired to the page's save loop, under its formatting toolbar. */
export function PageEditor({ slug, path, page, readOnly, hidden, sessionRef, onState }: PageEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const [editorView, setEditorView] = useState<EditorView | null>(null);
  // The tree the workspace screen loaded and keeps current: page links are offered and checked against it.
  const tree = useTree(slug, { refetchOnMount: false });

  useEffect(() => {
    let view: EditorView | null = null;
    const session = new PageSession(
      slug,
      path,
      page,
      {
        getDoc: () => (view ? textToSave(view.state) : ''),
        setDoc: (doc) => {
          if (!view) return;
          const current = view.state.doc.toString();
          if (current === doc) return;
          view.dispatch({
            changes: changesBetween(current, doc),
            annotations: Transaction.addToHistory.of(false),
          });
        },
      },
      onState,
    );
    view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: session.initialDoc,
        extensions: editorExtensions({
          page: { slug, path },
          readOnly,
          onDocChanged: () => session.edited(),
          onSave: () => void session.save(),
        }),
      }),
    });
    sessionRef.current = session;
    setEditorView(view);
    return () => {
      session.dispose();
      sessionRef.current = null;
      setEditorView(null);
      view?.destroy();
    };
    // The editor is made once per open page: the pane is keyed by path.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (editorView && tree.data)
      editorView.dispatch({ effects: setWorkspacePages.of(pagesOfTree(tree.data)) });
  }, [editorView, tree.data]);

  return (
    <>
      {!readOnly && <Toolbar view={editorView} hidden={hidden} />}
      <div className="editor-host" ref={host} hidden={hidden} />
    </>
  );
}
