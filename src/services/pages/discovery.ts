import { workspaceDir } from '../../content/workspace-meta.js';
import { WorkspaceFiles } from '../../content/workspace-files.js';
import type { Actor } from '../../domain/actor.js';
import { normalizePagePath, parentFolder } from '../../domain/paths.js';
import { atLeast, CAN } from '../../domain/policy.js';
import { extractLinks } from '../../domain/wikilinks.js';
import type { Store } from '../../store/database.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { PageRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import type { PagesService } from './pages.js';
import { pagePathCandidates } from '../../domain/page-extensions.js';

/** One line of the manifest: a cheap map of a workspace for agents. */
export interface ManifestEntry {
  page_id: string;
  path: string;
  title: string;
  description: string;
  tags: string[];
  status: string;
  content_hash: string;
  updated_at: string;
}

const BACKLINK_SCAN_LIMIT = 2000;

const entry = (row: PageRow): ManifestEntry => ({
  page_id: row.id,
  path: row.path,
  title: row.title,
  description: row.description,
  tags: JSON.parse(row.tags) as string[],
  status: row.status,
  content_hash: row.content_hash,
  updated_at: row.updated_at,
});

/**
 * Read-only views over a workspace's page index that agents use to find
 * their way: the manifest, a folder listing and a page with its neighbours.
 * Restricted pages (strict frontmatter mode) are shown to admins only.
 */
export function createPageDiscovery(deps: {
  store: Store;
  access: AccessService;
  pages: PagesService;
  dataDir: string;
}) {
  const db = deps.store.db;

  async function visible(actor: Actor, workspace: string): Promise<{ workspaceId: string; rows: PageRow[] }> {
    const { workspace: ws, role } = await deps.access.require(actor, workspace, CAN.read);
    const rows = await pagesTable.listOrderedByPath(db, ws.id, { includeRestricted: atLeast(role, 'admin') });
    return { workspaceId: ws.id, rows };
  }

  return {
    /** Every visible page's path, title, description, tags and hash, by path. */
    async manifest(actor: Actor, workspace: string): Promise<{ pages: ManifestEntry[]; count: number }> {
      const pages = (await visible(actor, workspace)).rows.map(entry);
      return { pages, count: pages.length };
    },

    /** Pages under a folder (all when none is given), optionally only its direct children. */
    async list(actor: Actor, workspace: string, options: { folder?: string; recursive?: boolean } = {}) {
      const folder = (options.folder ?? '').replace(/^\/+|\/+$/g, '');
      const rows = (await visible(actor, workspace)).rows.filter((row) => {
        if (folder && !row.path.startsWith(`${folder}/`)) return false;
        return options.recursive !== false || parentFolder(row.path) === folder;
      });
      return { folder, pages: rows.map(entry), count: rows.length };
    },

    /**
     * A page with what surrounds it: the folder's index page as parent, the
     * sibling pages, the pages it links to and the pages that link to it.
     */
    async context(actor: Actor, workspace: string, rawPath: string) {
      const path = normalizePagePath(rawPath);
      const page = await deps.pages.read(actor, workspace, path);
      const { workspaceId, rows } = await visible(actor, workspace);
      const byPath = new Map(rows.map((row) => [row.path, row]));
      const folder = parentFolder(path);
      const parent = pagePathCandidates(folder ? `${folder}/index` : 'index')
        .filter((candidate) => candidate !== path)
        .map((candidate) => byPath.get(candidate))
        .find((row) => row !== undefined);
      const siblings = rows.filter((row) => parentFolder(row.path) === folder && row.path !== path);
      const outgoing = new Set(extractLinks(page.content, path).map((link) => link.target));
      const linked = [...outgoing].flatMap((target) => {
        const row = byPath.get(target);
        return row ? [entry(row)] : [];
      });
      const missing = [...outgoing].filter((target) => !byPath.has(target));
      // Backlinks need every page's body; past a few thousand pages that costs more than it helps.
      const backlinks: ManifestEntry[] | null = rows.length <= BACKLINK_SCAN_LIMIT ? [] : null;
      // Access was checked once above; the other pages' bodies come straight from their files.
      const files = new WorkspaceFiles(workspaceDir(deps.dataDir, workspaceId));
      for (const row of backlinks ? rows : []) {
        if (row.path === path) continue;
        const other = await files.read(row.path);
        if (other && extractLinks(other.body, row.path).some((link) => link.target === path)) {
          backlinks?.push(entry(row));
        }
      }
      return {
        page,
        parent: parent ? entry(parent) : null,
        siblings: siblings.map(entry),
        linked_pages: linked,
        missing_links: missing,
        backlinks,
      };
    },
  };
}
