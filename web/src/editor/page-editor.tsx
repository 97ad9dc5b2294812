import { EditorView } from '@codemirror/view';
import { EditorState, Transaction } from '@codemirror/state';
import { hashKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { Page, TreeNode } from '../../../src/contract/pages';
import { useMe } from '../api/queries';
import { coeditBinding } from '../coedit/coedit-binding';
import { useEvents } from '../live/workspace-events';
import { colourIndexOf } from '../presence/page-presence';
import { goToLine, requestedLine } from './go-to-line';
import { editorExtensions } from './editor-extensions';
import { type EditorMode, setEditorMode } from './editor-mode';
import { pagesOfTree, setWorkspacePages } from './page-context';
import { PageSession, type SessionState } from './page-session';
import { changesBetween } from './raw-text';
import { Toolbar } from './toolbar';
import { treeKeys } from '../api/query-keys';

interface PageEditorProps {
  slug: string;
  workspaceId: string;
  path: string;
  page: Page;
  readOnly: boolean;
  hidden: boolean;
  sessionRef: RefObject<PageSession | null>;
  /** Live preview or source (the page header's "Source" switch). */
  mode: EditorMode;
  /** Ctrl/Cmd+E in the text. */
  onToggleMode: () => void;
  /** A state setter: stable for the life of the editor. */
  onState: (state: SessionState) => void;
}

/** CodeMirror on the page body, wired to the page's save loop, under its formatting toolbar. */
export function PageEditor(props: PageEditorProps) {
  const { slug, workspaceId, path, page, readOnly, hidden, sessionRef, mode, onState } = props;
  const toggleMode = useRef(props.onToggleMode);
  useEffect(() => {
    toggleMode.current = props.onToggleMode;
  });
  const host = useRef<HTMLDivElement>(null);
  const events = useEvents();
  const me = useMe().data;
  const [editorView, setEditorView] = useState<EditorView | null>(null);
  useWorkspacePages(editorView, slug);

  useEffect(() => {
    let view: EditorView | null = null;
    // Co-editing: the page's room over the workspace socket, when the server has it on.
    const coedit = coeditBinding({
      hub: events,
      workspaceId,
      path,
      user: { name: me?.name ?? 'Someone', colour: colourIndexOf(me?.id ?? '') },
    });
    const session = new PageSession(
      slug,
      path,
      page,
      {
        getDoc: () => view?.state.doc.toString() ?? '',
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
        extensions: [
          editorExtensions({
            page: { slug, path },
            readOnly,
            mode,
            onToggleMode: () => toggleMode.current(),
            onDocChanged: () => session.edited(),
            onSave: () => void session.save(),
          }),
          coedit.extension,
        ],
      }),
    });
    sessionRef.current = session;
    const line = requestedLine(window.location.search);
    if (line) goToLine(view, line);
    setEditorView(view);
    coedit.start(view, session);
    return () => {
      coedit.destroy();
      session.dispose();
      sessionRef.current = null;
      setEditorView(null);
      view?.destroy();
    };
    // The editor is made once per open page: the pane is keyed by path.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (editorView) setEditorMode(editorView, mode);
  }, [editorView, mode]);

  return (
    // One column, toolbar above the text, so the preview can sit beside both.
    <div className="editor-column">
      {!readOnly && <Toolbar view={editorView} hidden={hidden} />}
      <div className="editor-host" ref={host} hidden={hidden} />
    </div>
  );
}

/**
 * Keeps the editor's page list (for `[[` links and missing-page warnings) equal to the tree
 * the workspace screen loaded and refreshes (`treeKeys.all(slug)`): read from the query cache,
 * so opening a page asks the server for nothing more.
 */
function useWorkspacePages(view: EditorView | null, slug: string): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!view) return;
    const key = treeKeys.all(slug);
    let shown: TreeNode[] | undefined;
    const show = () => {
      const tree = client.getQueryData<TreeNode[]>(key);
      if (!tree || tree === shown) return;
      shown = tree;
      view.dispatch({ effects: setWorkspacePages.of(pagesOfTree(tree)) });
    };
    show();
    return client.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.query.queryHash === hashKey(key)) show();
    });
  }, [client, view, slug]);
}
