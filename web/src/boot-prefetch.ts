import type { QueryClient } from '@tanstack/react-query';
import { loadPageEarly } from './api/page-loads';
import { meQuery, treeQuery, workspacesQuery } from './api/queries';
import { isPagePath } from '../../src/domain/page-extensions';

/** The editor and CodeMirror: a chunk of their own, loaded when a page is opened. */
export const loadEditorPane = () => import('./editor/editor-pane');

/**
 * On a deep link into a workspace, asks at once for everything its first screen needs,
 * rather than one request after another as each component mounts: the session, the
 * workspaces, the tree and, for a page, the editor's code. The components then find the
 * answers in the query cache. A signed-out visitor's requests simply answer 401.
 */
export function prefetchForLocation(client: QueryClient, pathname: string): void {
  void client.prefetchQuery(meQuery);
  const [, section, slug, ...rest] = pathname.split('/');
  if (section !== 'w' || !slug) return;
  void client.prefetchQuery(workspacesQuery);
  void client.prefetchQuery(treeQuery(decodeURIComponent(slug)));
  const pagePath = rest.map(decodeURIComponent).join('/');
  if (!isPagePath(pagePath)) return;
  void loadEditorPane();
  loadPageEarly(decodeURIComponent(slug), pagePath);
}
