/**
 * The workspace's pages in the order and with the labels of the docs tool its site follows
 * (MkDocs `nav:`, Docusaurus sidebars, GitBook's SUMMARY.md), for the writers' sidebar.
 * Unlike the site, it holds every page a reader of the workspace may open, drafts
 * included, and lists the pages the tool's navigation leaves out apart, so each file
 * can still be opened.
 */
import type { NavEntry, PageNavigation } from '../../contract/page-navigation.js';
import { WorkspaceFiles } from '../../content/workspace-files.js';
import { workspaceDir } from '../../content/workspace-meta.js';
import type { Actor } from '../../domain/actor.js';
import { atLeast, CAN } from '../../domain/policy.js';
import { LruCache } from '../../lib/lru-cache.js';
import type { Store } from '../../store/database.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { AccessService } from '../access.js';
import { readSettings } from '../workspaces/settings.js';
import type { OutlineItem } from './site/nav-sources/index.js';
import { dirOf, labelOf } from './site/nav-sources/outline.js';
import { navFingerprint, workspaceNavigation } from './site/site-navigation.js';

export interface PageNavigationDeps {
  store: Store;
  access: AccessService;
  dataDir: string;
  frontmatterMode: 'strict' | 'lenient';
}

const CACHED_WORKSPACES = 200;

/** The outline as entries with titles, keeping only pages the caller may see. */
function entriesOf(
  items: readonly OutlineItem[],
  titles: ReadonlyMap<string, string>,
  placed: Set<string>,
): NavEntry[] {
  const out: NavEntry[] = [];
  for (const item of items) {
    if (item.kind === 'link') {
      out.push({ type: 'link', title: item.label, href: item.href });
    } else if (item.kind === 'page') {
      const title = titles.get(item.path);
      if (title === undefined) continue;
      placed.add(item.path);
      out.push({ type: 'page', path: item.path, title: item.label || title });
    } else {
      const index = item.index !== undefined && titles.has(item.index) ? item.index : null;
      if (index) placed.add(index);
      const children = entriesOf(item.children, titles, placed);
      if (!index && children.length === 0) continue;
      const dir = item.dir ?? (index ? dirOf(index) : '');
      const title =
        item.label ||
        (index ? titles.get(index) : undefined) ||
        (dir ? labelOf(dir.slice(dir.lastIndexOf('/') + 1)) : 'Section');
      out.push({ type: 'section', title: title!, path: index, children });
    }
  }
  return out;
}

/** The reading order of a workspace's pages for its members. */
export function createPageNavigation(deps: PageNavigationDeps) {
  const cache = new LruCache<{ key: string; answer: PageNavigation }>(CACHED_WORKSPACES);
  return {
    /**
     * Viewers and up. Restricted pages are left out below admin, as in the tree. Pages a
     * tool's navigation does not list are in `not_in_navigation`, by path; when the
     * workspace follows its folders, `items` is empty and every page is there.
     */
    async get(actor: Actor, workspaceIdOrSlug: string): Promise<PageNavigation> {
      const { workspace, role } = await deps.access.require(actor, workspaceIdOrSlug, CAN.read);
      const admin = atLeast(role, 'admin');
      const files = new WorkspaceFiles(workspaceDir(deps.dataDir, workspace.id));
      const [pages, nav] = await Promise.all([
        pagesTable.changeFingerprint(deps.store.db, workspace.id),
        navFingerprint(files),
      ]);
      const key = [pages, nav, workspace.settings, workspace.updated_at].join('\u0000');
      const cacheKey = `${workspace.id}:${admin ? 'admin' : 'reader'}`;
      const cached = cache.get(cacheKey);
      if (cached?.key === key) return cached.answer;

      const rows = (await pagesTable.listTreeRows(deps.store.db, workspace.id)).filter(
        (row) => row.restricted !== 1 || admin,
      );
      const titles = new Map(rows.map((r) => [r.path, r.title]));
      const settings = readSettings(workspace, { frontmatterMode: deps.frontmatterMode });
      const navigation = await workspaceNavigation(files, settings.nav_source, [...titles.keys()]);
      const placed = new Set<string>();
      const items = navigation.outline ? entriesOf(navigation.outline, titles, placed) : [];
      const rest = rows
        .filter((r) => !placed.has(r.path))
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
        .map((r) => ({ type: 'page' as const, path: r.path, title: r.title }));
      const file = navigation.detected.find((d) => d.source === navigation.following)?.file ?? null;
      const answer: PageNavigation = {
        following: navigation.following,
        file: navigation.following === 'folio' ? null : file,
        items,
        not_in_navigation: rest,
        findings: navigation.findings,
      };
      cache.set(cacheKey, { key, answer });
      return answer;
    },
  };
}

export type PageNavigationService = ReturnType<typeof createPageNavigation>;
