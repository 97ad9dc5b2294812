import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/client';
import { loadPage } from '../api/page-loads';
import { canEdit, type Role } from '../api/types';
import type { Page } from '../../../src/contract/pages';
import { PageComments } from '../comments/page-comments';
import { PageHistory } from '../history/page-history';
import { useEvents } from '../live/workspace-events';
import { PagePresence } from '../presence/page-presence';
import { errorText } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { loadDraft, clearDraft, type Draft } from './drafts';
import { PageActivity } from './page-activity';
import { PageEditor } from './page-editor';
import { AiAssist } from './ai-assist';
import { PreviewPane, PreviewToggle } from './preview-toggle';
import { PublishedSwitch } from './published-switch';
import { DetailsForm } from './details-form';
import { type EditorMode, loadMode, saveMode, SourceToggle } from './editor-mode';
import { useMe } from '../api/queries';
import type { PageSession, SessionState } from './page-session';

// The merge view (@codemirror/merge) is needed only when a conflict appears.
const MergePanel = lazy(() => import('./merge-panel').then((m) => ({ default: m.MergePanel })));
import { SaveStatus } from './save-status';
import { pageKeys } from '../api/query-keys';
import { pageRoute } from '../../../src/render/links';

export interface EditorPaneProps {
  slug: string;
  workspaceId: string;
  path: string;
  role: Role;
  onMove?: () => void;
  onRename?: () => void;
  onDelete?: () => void;
}

/** `/w/<slug>/<path>`: the open page, its save state, and what to do about drafts and conflicts. */
export default function EditorPane(props: EditorPaneProps) {
  const { slug, path } = props;
  const page = useQuery({
    queryKey: pageKeys.byPath(slug, path),
    queryFn: () => loadPage(slug, path),
    staleTime: Infinity,
    gcTime: 0,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
  if (page.isPending) return <Loading label="Loading the page…" />;
  if (page.isError) {
    return (
      <div className="empty-state">
        <h1>
          {page.error instanceof ApiError && page.error.status === 404
            ? 'Page not found'
            : 'Cannot open this page'}
        </h1>
        <p>{errorText(page.error)}</p>
      </div>
    );
  }
  return <OpenPage {...props} page={page.data} />;
}

function OpenPage({
  slug,
  workspaceId,
  path,
  role,
  page,
  onMove,
  onRename,
  onDelete,
}: EditorPaneProps & { page: Page }) {
  const editable = canEdit(role);
  const events = useEvents();
  const session = useRef<PageSession | null>(null);
  const [state, setState] = useState<SessionState>({
    status: 'saved',
    problem: null,
    conflict: null,
    remoteChanged: false,
  });
  const [draft, setDraft] = useState<Draft | null>(() => {
    const found = editable ? loadDraft(slug, path) : null;
    return found && found.doc !== page.content.replace(/\r\n|\r/g, '\n') ? found : null;
  });

  useEffect(
    () =>
      events.on((event) => {
        if (event.type === 'page-updated' && event.path === path) void session.current?.remoteUpdated();
      }),
    [events, path],
  );

  useEffect(() => {
    const onOnline = () => void session.current?.save();
    const onLeave = (event: BeforeUnloadEvent) => {
      if (session.current && state.status !== 'saved') event.preventDefault();
    };
    window.addEventListener('online', onOnline);
    window.addEventListener('beforeunload', onLeave);
    return () => {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('beforeunload', onLeave);
    };
  }, [state.status]);

  const restoreDraft = (found: Draft) => {
    setDraft(null);
    const s = session.current;
    if (!s) return;
    if (found.baseHash === s.baseHash) s.restore(found.doc);
    else void s.openConflict(found.doc, null);
  };

  const [published, setPublished] = useState(page.status === 'published');
  const [details, setDetails] = useState<Page>(page);
  const [editingDetails, setEditingDetails] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const userId = useMe().data?.id;
  const [mode, setMode] = useState<EditorMode>(() => loadMode(userId));
  const toggleMode = () => {
    const next = mode === 'live' ? 'source' : 'live';
    saveMode(userId, next);
    setMode(next);
  };
  const viewOnSite = published ? `/p/${slug}/${pageRoute(path)}` : null;

  return (
    <div className="page-view">
      <header className="page-header">
        <div className="page-heading">
          <h1>{details.title}</h1>
          <p className="page-path">{path}</p>
          <PageActivity workspaceId={workspaceId} path={path} />
        </div>
        <div className="page-actions">
          <PagePresence path={path} />
          {editable ? <SaveStatus status={state.status} /> : <span className="badge">Read only</span>}
          {editable && (
            <PublishedSwitch
              slug={slug}
              path={path}
              initial={published}
              sessionRef={session}
              onChange={setPublished}
            />
          )}
          <SourceToggle mode={mode} onToggle={toggleMode} />
          <PreviewToggle pressed={previewing} onToggle={() => setPreviewing((on) => !on)} />
          {editable && <AiAssist slug={slug} />}
          {viewOnSite && (
            <a className="button small ghost" href={viewOnSite} target="_blank" rel="noreferrer">
              View on site
            </a>
          )}
          {editable && (
            <button type="button" className="button small" onClick={() => setEditingDetails(true)}>
              Details…
            </button>
          )}
          {editable && (
            <Link className="button small" to={`/w/${slug}/change-requests?edit=${encodeURIComponent(path)}`}>
              Edit in a change request
            </Link>
          )}
          {onMove && (
            <button type="button" className="button small" onClick={onMove}>
              Move…
            </button>
          )}
          {onRename && (
            <button type="button" className="button small" onClick={onRename}>
              Rename…
            </button>
          )}
          {onDelete && (
            <button type="button" className="button small danger-outline" onClick={onDelete}>
              Delete
            </button>
          )}
          <PageComments slug={slug} path={path} role={role} />
          <PageHistory
            workspaceId={workspaceId}
            path={path}
            role={role}
            currentHash={() => session.current?.baseHash}
            onRestored={() => void session.current?.remoteUpdated()}
          />
        </div>
      </header>
      {editingDetails && (
        <DetailsForm
          slug={slug}
          page={details}
          sessionRef={session}
          onSaved={(saved) => {
            setDetails(saved);
            setEditingDetails(false);
          }}
          onClose={() => setEditingDetails(false)}
        />
      )}
      {state.problem && (
        <p className="banner warning" role="alert">
          {state.problem}
        </p>
      )}
      {draft && (
        <div className="banner info" role="region" aria-label="Unsaved draft">
          <span>
            This page has unsaved changes from {new Date(draft.savedAt).toLocaleString()} kept on this device.
          </span>
          <button type="button" className="button small primary" onClick={() => restoreDraft(draft)}>
            Restore draft
          </button>
          <button
            type="button"
            className="button small"
            onClick={() => {
              clearDraft(slug, path);
              setDraft(null);
            }}
          >
            Discard draft
          </button>
        </div>
      )}
      {state.remoteChanged && !state.conflict && (
        <div className="banner info" role="region" aria-label="Page changed elsewhere">
          <span>Someone else saved this page while you were editing.</span>
          <button
            type="button"
            className="button small primary"
            onClick={() => void session.current?.openConflict(session.current.currentDoc())}
          >
            Review changes
          </button>
        </div>
      )}
      {state.conflict && (
        <Suspense fallback={<Loading label="Loading the merge view…" />}>
          <MergePanel conflict={state.conflict} onResolve={(text) => session.current?.resolve(text)} />
        </Suspense>
      )}
      <div className={previewing ? 'editor-split is-previewing' : 'editor-split'}>
        <PageEditor
          slug={slug}
          workspaceId={workspaceId}
          path={path}
          page={page}
          readOnly={!editable}
          hidden={state.conflict !== null}
          sessionRef={session}
          mode={mode}
          onToggleMode={toggleMode}
          onState={setState}
        />
        {previewing && (
          <PreviewPane slug={slug} path={path} title={details.title} description={details.description} />
        )}
      </div>
    </div>
  );
}
