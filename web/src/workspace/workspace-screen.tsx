import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useTree, useWorkspaces } from '../api/queries';
import { loadEditorPane } from '../boot-prefetch';
import { canAdminister, canEdit } from '../api/types';
import type { TreeNode } from '../../../src/contract/pages';
import { EventsContext, useWorkspaceSocket } from '../live/workspace-events';
import { Loading } from '../ui/loading';
import { NotFoundPage } from '../ui/not-found-page';
import { DeleteDialog } from './delete-dialog';
import { MoveDialog } from './move-dialog';
import { NewPageDialog } from './new-page-dialog';
import { EmptyTree } from './empty-tree';
import { navEntries, TOOL_NAMES } from './nav-model';
import { NavTree } from './nav-tree';
import { PageTree } from './page-tree';
import { SearchPalette } from './search-palette';
import { SidebarViewToggle, useSidebarView } from './sidebar-view';
import { SignOutButton } from './sign-out-button';
import { folderPaths } from './tree-model';
import { usePageNavigation } from './use-page-navigation';
import { useTreeOrganise } from './use-tree-organise';
import { WorkspaceSwitcher } from './workspace-switcher';
import { treeKeys } from '../api/query-keys';
import { isPagePath } from '../../../src/domain/page-extensions';

const EditorPane = lazy(loadEditorPane);

type DialogState =
  | { kind: 'new-page' | 'new-folder' | 'move' | 'delete' | 'search' }
  | { kind: 'rename'; path: string }
  | null;

const TREE_EVENTS = new Set(['page-created', 'page-deleted', 'page-moved', 'bulk-sync']);

function findTitle(nodes: readonly TreeNode[], path: string): string | undefined {
  for (const node of nodes) {
    if (node.path === path) return node.title;
    const inner = findTitle(node.children, path);
    if (inner) return inner;
  }
  return undefined;
}

/** `/w/<slug>` and `/w/<slug>/<page path>`: the tree beside the open page. */
export function WorkspaceScreen() {
  const { slug = '', '*': rest = '' } = useParams();
  const pagePath = isPagePath(rest) ? rest : null;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const workspaces = useWorkspaces();
  const tree = useTree(slug);
  const navigation = usePageNavigation(slug);
  const [sidebarView, setSidebarView] = useSidebarView(slug);
  const nav = navigation.data?.following === 'folio' ? undefined : navigation.data;
  const entries = useMemo(() => (nav ? navEntries(nav) : []), [nav]);
  const workspace = workspaces.data?.find((w) => w.slug === slug);
  const events = useWorkspaceSocket(workspace?.id);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const folders = useMemo(() => folderPaths(tree.data ?? []), [tree.data]);
  const editable = canEdit(workspace?.role);
  // A page moved from the tree that is open in the editor is followed to its new path.
  const organise = useTreeOrganise(slug, (from, to) => {
    if (from === pagePath) navigate(`/w/${slug}/${to}`, { replace: true });
  });

  useEffect(
    () =>
      events.on((event) => {
        if (!TREE_EVENTS.has(event.type)) return;
        void queryClient.invalidateQueries({ queryKey: treeKeys.all(slug) });
        if (event.type === 'page-moved' && event.old_path === pagePath && event.new_path) {
          navigate(`/w/${slug}/${event.new_path}`, { replace: true });
        }
      }),
    [events, queryClient, slug, pagePath, navigate],
  );

  useEffect(() => {
    // Ctrl/Cmd+K opens search from anywhere on the screen, the editor included.
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setDialog({ kind: 'search' });
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  if (workspaces.isPending) return <Loading />;
  if (!workspace) return <NotFoundPage message="This workspace does not exist or you are not a member." />;

  const open = (path: string) => {
    setDrawerOpen(false);
    navigate(`/w/${slug}/${path}`);
  };
  const currentFolder = pagePath ? pagePath.split('/').slice(0, -1).join('/') : '';

  return (
    <EventsContext.Provider value={events}>
      <div className="app-shell">
        <header className="topbar">
          <button
            type="button"
            className="button ghost drawer-toggle"
            aria-expanded={drawerOpen}
            aria-controls="sidebar"
            onClick={() => setDrawerOpen((o) => !o)}
          >
            Pages
          </button>
          <span className="brand-mark" aria-hidden="true">
            F
          </span>
          <WorkspaceSwitcher workspaces={workspaces.data ?? []} current={slug} />
          <span className="spacer" />
          <button
            type="button"
            className="button ghost"
            aria-keyshortcuts="Control+K Meta+K"
            onClick={() => setDialog({ kind: 'search' })}
          >
            Search
          </button>
          <Link to="/settings/account" className="button ghost">
            Account
          </Link>
          {/* At phone width the account screen holds "Sign out", so the bar fits. */}
          <SignOutButton className="topbar-sign-out" />
        </header>
        <div className="shell-body">
          <nav id="sidebar" className={`sidebar${drawerOpen ? ' is-open' : ''}`} aria-label="Workspace">
            {editable && (
              <div className="sidebar-actions">
                <button
                  type="button"
                  className="button small"
                  onClick={() => setDialog({ kind: 'new-page' })}
                >
                  New page
                </button>
                <button
                  type="button"
                  className="button small"
                  onClick={() => setDialog({ kind: 'new-folder' })}
                >
                  New folder
                </button>
              </div>
            )}
            {nav && nav.following !== 'folio' && tree.data?.length !== 0 && (
              <SidebarViewToggle
                tool={TOOL_NAMES[nav.following]}
                file={nav.file}
                view={sidebarView}
                onChange={setSidebarView}
              />
            )}
            {tree.isPending || navigation.isPending ? (
              <Loading label="Loading pages…" />
            ) : tree.data?.length === 0 ? (
              <EmptyTree onCreate={editable ? () => setDialog({ kind: 'new-page' }) : undefined} />
            ) : nav && sidebarView === 'tool' ? (
              <NavTree
                key={slug}
                entries={entries}
                restKey={nav.not_in_navigation.length > 0 ? String(nav.items.length) : null}
                activePath={pagePath}
                onOpen={open}
              />
            ) : (
              <PageTree
                tree={tree.data ?? []}
                activePath={pagePath}
                onOpen={open}
                organise={editable ? organise : undefined}
                onRename={editable ? (path) => setDialog({ kind: 'rename', path }) : undefined}
              />
            )}
            <div className="sidebar-footer">
              <Link to={`/w/${slug}/change-requests`} className="button small ghost">
                Change requests
              </Link>
            </div>
            {canAdminister(workspace.role) && (
              <div className="sidebar-footer">
                <Link to={`/settings/w/${slug}`} className="button small ghost">
                  Workspace settings
                </Link>
              </div>
            )}
          </nav>
          {drawerOpen && <div className="scrim" aria-hidden="true" onClick={() => setDrawerOpen(false)} />}
          <main className="main">
            {pagePath ? (
              <Suspense fallback={<Loading label="Loading the editor…" />}>
                <EditorPane
                  key={pagePath}
                  slug={slug}
                  workspaceId={workspace.id}
                  path={pagePath}
                  role={workspace.role}
                  onMove={editable ? () => setDialog({ kind: 'move' }) : undefined}
                  onRename={editable ? () => setDialog({ kind: 'rename', path: pagePath }) : undefined}
                  onDelete={editable ? () => setDialog({ kind: 'delete' }) : undefined}
                />
              </Suspense>
            ) : (
              <div className="empty-state">
                <h1>{workspace.name}</h1>
                <p>
                  {tree.data?.length === 0
                    ? 'This workspace is empty.'
                    : `Choose a page from the tree${editable ? ', or create a new one' : ''}.`}
                </p>
              </div>
            )}
          </main>
        </div>
      </div>
      {(dialog?.kind === 'new-page' || dialog?.kind === 'new-folder') && (
        <NewPageDialog
          slug={slug}
          folders={folders}
          initialFolder={currentFolder}
          kind={dialog.kind === 'new-folder' ? 'folder' : 'page'}
          onCreated={(path) => {
            setDialog(null);
            open(path);
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'search' && (
        <SearchPalette
          workspaceId={workspace.id}
          onOpen={(path) => {
            setDialog(null);
            open(path);
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'move' && pagePath && (
        <MoveDialog
          slug={slug}
          path={pagePath}
          folders={folders}
          onMoved={(path) => {
            setDialog(null);
            navigate(`/w/${slug}/${path}`, { replace: true });
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'rename' && (
        <MoveDialog
          slug={slug}
          path={dialog.path}
          folders={folders}
          rename
          onMoved={(path) => {
            setDialog(null);
            if (dialog.path === pagePath) navigate(`/w/${slug}/${path}`, { replace: true });
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && pagePath && (
        <DeleteDialog
          slug={slug}
          path={pagePath}
          title={findTitle(tree.data ?? [], pagePath) ?? pagePath}
          onDeleted={() => {
            setDialog(null);
            navigate(`/w/${slug}`, { replace: true });
          }}
          onClose={() => setDialog(null)}
        />
      )}
    </EventsContext.Provider>
  );
}
