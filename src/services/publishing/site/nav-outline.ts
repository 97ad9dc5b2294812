/**
 * The site's structure when it follows a docs tool's navigation (MkDocs `nav:`,
 * Docusaurus sidebars, GitBook's SUMMARY.md): the tool's sections, labels and order in the
 * sidebar, breadcrumbs and reading order. A published page the navigation leaves out is
 * still served and read in order after the others, but not listed, as those tools do.
 */
import { folderOfPath, readingOrder, type SiteFolder, type SiteMap, type SitePage } from './nav.js';
import { labelOf, type OutlineItem } from './nav-sources/outline.js';
import { isIndexPageName } from '../../../domain/page-extensions.js';

/** Builds the site map from an outline over the published pages. */
export function siteMapFromOutline(
  pages: readonly SitePage[],
  rootTitle: string,
  items: readonly OutlineItem[],
): SiteMap {
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const placed = new Set<string>();
  const root: SiteFolder = { path: '', title: rootTitle, entries: [] };
  const folders = new Map<string, SiteFolder>([['', root]]);
  const trail = new Map<string, SiteFolder[]>();
  const holds = new Map<SiteFolder, Set<string>>();
  let sections = 0;

  const take = (path: string | undefined): SitePage | undefined => {
    const page = path === undefined ? undefined : byPath.get(path);
    if (!page || placed.has(page.path)) return undefined;
    placed.add(page.path);
    return page;
  };

  // The home page: the workspace's own index.md when the navigation lists it at the top.
  const home = items.find((i) => i.kind === 'page' && isIndexPageName(i.path));
  if (home && home.kind === 'page') root.index = take(home.path);

  const fill = (folder: SiteFolder, list: readonly OutlineItem[], ancestors: SiteFolder[]): void => {
    for (const item of list) {
      if (item.kind === 'link') {
        folder.entries.push({ kind: 'link', title: item.label, href: item.href });
        continue;
      }
      if (item.kind === 'page') {
        const page = take(item.path);
        if (!page) continue;
        folder.entries.push({ kind: 'page', page, ...(item.label ? { title: item.label } : {}) });
        trail.set(page.path, ancestors);
        for (const a of ancestors) holds.get(a)?.add(page.path);
        continue;
      }
      const index = take(item.index);
      // A section that is a folder keeps the folder's path (its generated list and URL);
      // any other gets a key no URL can name.
      const dir = item.dir ?? (index ? folderOfPath(index.path) : undefined);
      const key = dir && !folders.has(dir) ? dir : `\u0000${++sections}`;
      const fallback = dir ? labelOf(dir.slice(dir.lastIndexOf('/') + 1)) : 'Section';
      const sub: SiteFolder = {
        path: key,
        title: item.label || index?.title || fallback,
        ...(index ? { index } : {}),
        entries: [],
      };
      const inner = [...ancestors, sub];
      holds.set(sub, new Set());
      if (index) {
        trail.set(index.path, inner);
        for (const a of inner) holds.get(a)?.add(index.path);
      }
      fill(sub, item.children, inner);
      if (!sub.index && sub.entries.length === 0) continue;
      folders.set(key, sub);
      folder.entries.push({ kind: 'folder', folder: sub });
    }
  };
  fill(root, items, []);

  const order = readingOrder(root);
  // Left out of the navigation: still served, read after the rest in path order.
  const rest = pages.filter((p) => !placed.has(p.path)).sort((a, b) => (a.path < b.path ? -1 : 1));
  order.push(...rest);
  if (root.index) root.title = root.index.title;
  return { root, folders, order, sections: { trail, holds } };
}
