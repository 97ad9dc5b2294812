/**
 * The published site's structure: folders, reading order, navigation, breadcrumbs and
 * previous/next, all derived from the published pages with the tree's own ordering
 * rules (`buildTree`), so the site lists pages in the order writers see in the app.
 * Pure functions; hrefs come from a {@link Linker} so the site and the static export
 * share this module.
 */
import { escapeHtml, safeHref } from '../../../render/escape.js';
import type { LinkRef, NavNode } from '../../../render/layout.js';
import { titleFromPath } from '../../pages/page-object.js';
import { buildTree, type TreeNode } from '../../pages/tree.js';
import { isIndexPageName } from '../../../domain/page-extensions.js';
import { naturalOrder } from '../../../lib/natural-order.js';

/** A published page as the site sees it (live index row or frozen version entry). */
export interface SitePage {
  id: string;
  /** Workspace path, ending in `.md` or `.mdx`. */
  path: string;
  title: string;
  description: string;
  sortOrder: number;
  contentHash: string;
  updatedAt: string;
}

/** Where a page, folder or upload lives: absolute site URLs, or relative files in the export. */
export interface Linker {
  /** Distinguishes link styles in the render cache (hrefs differ between them). */
  key: string;
  page(path: string): string;
  /** A folder ('' is the root). */
  folder(path: string): string;
  upload(name: string): string;
  /** A repository file that is neither a page nor an upload (an image beside the page), by its path. */
  asset(path: string): string;
  /** What a relative link to a page that is not published becomes. */
  deadLink(href: string): string;
}

/** A folder of the site; the root folder has path ''. */
export interface SiteFolder {
  path: string;
  title: string;
  /** Its `index.md` (or the section page a docs tool's navigation names), when published. */
  index?: SitePage;
  entries: SiteEntry[];
}

/** A folder's entry; `title` is a docs tool's label for the page, when it gives one. */
export type SiteEntry =
  | { kind: 'page'; page: SitePage; title?: string }
  | { kind: 'folder'; folder: SiteFolder }
  | { kind: 'link'; title: string; href: string };

/** Folders a docs tool's sections stand for have a key of their own, never a served path. */
export const isSectionKey = (path: string): boolean => path.startsWith('\u0000');

/** The site's structure, built once per change of the published pages. */
export interface SiteMap {
  root: SiteFolder;
  folders: Map<string, SiteFolder>;
  /** Reading order: each folder's index first, then its entries depth-first. */
  order: SitePage[];
  /**
   * With a docs tool's navigation: each placed page's sections, outermost first (they
   * need not be its folders), and every page path each section holds at any depth.
   */
  sections?: { trail: Map<string, SiteFolder[]>; holds: Map<SiteFolder, Set<string>> };
}

/**
 * The site's sibling order: `order` first (a folder's is its index page's), then folders
 * before pages as Docusaurus and MkDocs readers expect, then by name.
 */
const folderFirst = (a: TreeNode, b: TreeNode): number =>
  a.sort_order - b.sort_order ||
  (a.type === b.type ? 0 : a.type === 'folder' ? -1 : 1) ||
  naturalOrder(a.name, b.name);

/** Builds the folders and reading order; `rootTitle` names the root when it has no index page. */
export function buildSiteMap(pages: readonly SitePage[], rootTitle: string): SiteMap {
  const byId = new Map(pages.map((p) => [p.id, p]));
  const folders = new Map<string, SiteFolder>();
  const tree = buildTree(
    pages.map((p) => ({ id: p.id, path: p.path, title: p.title, sort_order: p.sortOrder })),
  );

  const folderOf = (path: string, title: string, nodes: TreeNode[]): SiteFolder => {
    const folder: SiteFolder = { path, title, entries: [] };
    folders.set(path, folder);
    for (const node of [...nodes].sort(folderFirst)) {
      if (node.type === 'folder') {
        const hasIndex = node.children.some((c) => c.type === 'page' && isIndexPageName(c.name));
        // A folder without an index page is named after itself, made readable.
        const name = hasIndex ? node.title : titleFromPath(`${node.name}.md`);
        folder.entries.push({ kind: 'folder', folder: folderOf(node.path, name, node.children) });
        continue;
      }
      const page = node.page_id ? byId.get(node.page_id) : undefined;
      if (!page) continue;
      if (isIndexPageName(node.name)) folder.index = page;
      else folder.entries.push({ kind: 'page', page });
    }
    return folder;
  };
  const root = folderOf('', rootTitle, tree);
  if (root.index) root.title = root.index.title;

  return { root, folders, order: readingOrder(root) };
}

/** The pages of a folder tree in reading order: each folder's index page, then its entries. */
export function readingOrder(root: SiteFolder): SitePage[] {
  const order: SitePage[] = [];
  const visit = (folder: SiteFolder): void => {
    if (folder.index) order.push(folder.index);
    for (const entry of folder.entries) {
      if (entry.kind === 'page') order.push(entry.page);
      else if (entry.kind === 'folder') visit(entry.folder);
    }
  };
  visit(root);
  return order;
}

/** The folder a page path belongs to ('' for the root). */
export function folderOfPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/**
 * What is being shown: a page by its path, or a generated folder listing by its folder
 * path. Used to mark the navigation's current entry.
 */
export type SiteLocation = { page: string } | { folder: string };

const isHere = (loc: SiteLocation, folder: SiteFolder): boolean =>
  'folder' in loc ? loc.folder === folder.path : loc.page === folder.index?.path;

/** Up to this many pages, the sidebar lists every page of the site. */
export const FULL_NAV_PAGES = 200;
/** In a larger site, how many entries of one folder the sidebar shows around the current one. */
export const NAV_WINDOW = 40;

/** Whether the folder holds what is being shown, at any depth. */
const leadsTo = (map: SiteMap, loc: SiteLocation, folder: SiteFolder): boolean => {
  const here = 'folder' in loc ? loc.folder : loc.page;
  const holds = map.sections?.holds.get(folder);
  if (holds) return here === folder.path || holds.has(here);
  return here === folder.path || here.startsWith(`${folder.path}/`);
};

/**
 * The sidebar: the root's index first, then folders as groups (their own page first).
 * A small site lists every page. A large one lists only the way to what is shown: the
 * folders around it open, every other folder a single link, and each open folder's
 * entries cut to a window around the current one, so a page's HTML stays the same size
 * however many pages the site has. Every page stays reachable through its folder's
 * link, the previous/next links and search.
 */
export function navNodes(map: SiteMap, linker: Linker, loc: SiteLocation): NavNode[] {
  const full = map.order.length <= FULL_NAV_PAGES;
  const folderHref = (sub: SiteFolder) =>
    sub.index ? linker.page(sub.index.path) : full || isSectionKey(sub.path) ? null : linker.folder(sub.path);
  const entries = (folder: SiteFolder): NavNode[] => {
    const nodes = folder.entries.map((entry): NavNode => {
      if (entry.kind === 'link') return { title: entry.title, href: entry.href };
      if (entry.kind === 'page') {
        const { page } = entry;
        return {
          title: entry.title ?? page.title,
          href: linker.page(page.path),
          active: 'page' in loc && loc.page === page.path,
        };
      }
      const sub = entry.folder;
      const open = full || leadsTo(map, loc, sub);
      return {
        title: sub.title,
        // In a full sidebar a folder without an index page is just a group here; its
        // generated list is reachable from the breadcrumbs, and would only repeat the
        // group's entries. Closed, the link is the way in.
        href: folderHref(sub),
        active: isHere(loc, sub),
        ...(open ? { children: entries(sub) } : {}),
      };
    });
    return full ? nodes : windowAround(nodes, folder, linker);
  };
  const home: NavNode[] = map.root.index
    ? [{ title: map.root.index.title, href: linker.page(map.root.index.path), active: isHere(loc, map.root) }]
    : [];
  return [...home, ...entries(map.root)];
}

/**
 * At most {@link NAV_WINDOW} of a folder's entries, centred on the one that is or holds the
 * current page, with a note of how many were left out before and after.
 */
function windowAround(nodes: NavNode[], folder: SiteFolder, linker: Linker): NavNode[] {
  if (nodes.length <= NAV_WINDOW) return nodes;
  const current = nodes.findIndex((n) => n.active || n.children !== undefined);
  const start = Math.min(
    Math.max(0, (current === -1 ? 0 : current) - Math.floor(NAV_WINDOW / 2)),
    nodes.length - NAV_WINDOW,
  );
  const end = start + NAV_WINDOW;
  const more = (count: number, where: string): NavNode => ({
    title: `${count} more ${count === 1 ? 'entry' : 'entries'} ${where}`,
    // A folder without an index page has a generated list of all of them.
    href: folder.index || isSectionKey(folder.path) ? null : linker.folder(folder.path),
  });
  return [
    ...(start > 0 ? [more(start, 'before')] : []),
    ...nodes.slice(start, end),
    ...(end < nodes.length ? [more(nodes.length - end, 'after')] : []),
  ];
}

/** Ancestors of a page or folder listing, root first (the layout appends the current title). */
export function breadcrumbs(map: SiteMap, linker: Linker, loc: SiteLocation): LinkRef[] {
  const here = 'folder' in loc ? loc.folder : loc.page;
  if (here === '' || here === map.root.index?.path) return [];
  const crumbs: LinkRef[] = [{ title: map.root.title, href: linker.folder('') }];
  const shown = 'page' in loc ? loc.page : null;
  const trail = shown === null ? undefined : map.sections?.trail.get(shown);
  if (trail) {
    for (const section of trail) {
      if (section.index?.path === shown) break;
      const href = section.index
        ? linker.page(section.index.path)
        : isSectionKey(section.path)
          ? null
          : linker.folder(section.path);
      if (href) crumbs.push({ title: section.title, href });
    }
    return crumbs;
  }
  // The folder a listing or index page stands for is the current entry, not an ancestor.
  const own =
    'folder' in loc
      ? loc.folder
      : isIndexPageName(here.slice(here.lastIndexOf('/') + 1))
        ? folderOfPath(here)
        : null;
  const parts = ('folder' in loc ? loc.folder : folderOfPath(here)).split('/').filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    const path = parts.slice(0, i + 1).join('/');
    if (path === own) break;
    const folder = map.folders.get(path);
    if (!folder) continue;
    crumbs.push({
      title: folder.title,
      href: folder.index ? linker.page(folder.index.path) : linker.folder(path),
    });
  }
  return crumbs;
}

/** Previous and next pages in reading order. */
export function neighbours(map: SiteMap, linker: Linker, page: SitePage): { prev?: LinkRef; next?: LinkRef } {
  const i = map.order.findIndex((p) => p.path === page.path);
  if (i === -1) return {};
  const ref = (p: SitePage | undefined): LinkRef | undefined =>
    p ? { title: p.title, href: linker.page(p.path) } : undefined;
  const prev = ref(map.order[i - 1]);
  const next = ref(map.order[i + 1]);
  return { ...(prev ? { prev } : {}), ...(next ? { next } : {}) };
}

/** The body of a generated folder page (a folder without a published `index.md`). */
export function folderListingHtml(folder: SiteFolder, linker: Linker): string {
  const items = folder.entries.map((entry) => {
    if (entry.kind === 'link')
      return `<li><a href="${safeHref(entry.href)}">${escapeHtml(entry.title)}</a></li>`;
    const title = entry.kind === 'page' ? (entry.title ?? entry.page.title) : entry.folder.title;
    const href =
      entry.kind === 'page'
        ? linker.page(entry.page.path)
        : entry.folder.index
          ? linker.page(entry.folder.index.path)
          : isSectionKey(entry.folder.path)
            ? null
            : linker.folder(entry.folder.path);
    const description =
      entry.kind === 'page' ? entry.page.description : (entry.folder.index?.description ?? '');
    return (
      (href ? `<li><a href="${safeHref(href)}">${escapeHtml(title)}</a>` : `<li>${escapeHtml(title)}`) +
      (description ? ` — ${escapeHtml(description)}` : '') +
      '</li>'
    );
  });
  return items.length ? `<ul>${items.join('')}</ul>` : '<p>This section has no pages yet.</p>';
}
