import { syntaxTree } from '@codemirror/language';
import type { EditorView } from '@codemirror/view';
import { pageLocation } from '../page-context';
import { isPagePath } from '../../../../src/domain/page-extensions';

/**
 * Ctrl/Cmd+click on a link follows it: another page of the workspace opens in the app,
 * anything else in a new tab. A plain click places the cursor, as in any text.
 */
export function followLink(event: MouseEvent, view: EditorView): boolean {
  if (!(event.ctrlKey || event.metaKey) || event.button !== 0) return false;
  const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
  if (pos === null) return false;
  for (
    let node: ReturnType<typeof syntaxTree>['topNode'] | null = syntaxTree(view.state).resolveInner(pos, 1);
    node;
    node = node.parent
  ) {
    if (node.name !== 'Link' && node.name !== 'Autolink') continue;
    const url = node.getChild('URL');
    if (!url) return false;
    const href = view.state.sliceDoc(url.from, url.to).replace(/^<(.*)>$/, '$1');
    event.preventDefault();
    open(href, view);
    return true;
  }
  return false;
}

function open(href: string, view: EditorView): void {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) {
    window.open(href, '_blank', 'noopener,noreferrer');
    return;
  }
  if (href.startsWith('#')) return;
  // A relative link to a page: resolved against the open page's folder, opened in the app.
  const { slug, path } = view.state.facet(pageLocation);
  const parts = path.split('/').slice(0, -1);
  for (const segment of href.split('#')[0]!.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment && segment !== '.') parts.push(decodeURIComponent(segment));
  }
  const target = parts.join('/');
  const page = isPagePath(target) ? target : `${target}.md`;
  window.history.pushState(
    null,
    '',
    `/w/${encodeURIComponent(slug)}/${page.split('/').map(encodeURIComponent).join('/')}`,
  );
  window.dispatchEvent(new PopStateEvent('popstate'));
}
