import type { Actor } from '../../domain/actor.js';
import { parentFolder } from '../../domain/paths.js';
import { atLeast, CAN, type Requirement } from '../../domain/policy.js';
import { slugify } from '../../domain/slug.js';
import { notFound } from '../../errors.js';
import type { Store } from '../../store/database.js';
import { listPageCreations } from '../../store/repositories/activity.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { PageRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import type { CreatePageByIdInput, ListPagesByIdInput, UpdatePageByIdInput } from './by-id-inputs.js';
import type { PagesService } from './pages.js';
import { isIndexPageName, stripPageExtension } from '../../domain/page-extensions.js';

/** Layout C's page list item. */
export interface PageByIdItem {
  id: string;
  title: string;
  slug: string;
  description: string;
  path: string;
  tags: string[];
  published: boolean;
  /** `workspace`: every member reads it; `restricted`: admins only (strict frontmatter mode). */
  access: 'workspace' | 'restricted';
  created_at: string;
  updated_at: string;
  /** Who created the page through Folio; null for a page that arrived by git or on disk. */
  author_id: string | null;
}

/** Layout C's single page: the item plus its body, hash and parent. */
export interface PageById extends PageByIdItem {
  content: string;
  content_hash: string;
  parent_id: string | null;
}

/**
 * The page a page hangs under, by path: its folder's `index.md`, else the page named like
 * the folder (`guides.md` for `guides/…`). An `index.md` hangs under the folder above.
 */
function parentCandidates(path: string): string[] {
  let folder = parentFolder(path);
  if (isIndexPageName(path.slice(path.lastIndexOf('/') + 1))) {
    if (folder === '') return [];
    folder = parentFolder(folder);
    const own = parentFolder(path);
    return [folder ? `${folder}/index.md` : 'index.md', `${own}.md`].filter((p) => p !== path);
  }
  return [folder ? `${folder}/index.md` : 'index.md', ...(folder ? [`${folder}.md`] : [])];
}

/** The folder a new child of the page at `path` goes into. */
function childFolder(path: string): string {
  if (isIndexPageName(path.slice(path.lastIndexOf('/') + 1))) return parentFolder(path);
  return stripPageExtension(path);
}

/**
 * Pages addressed by page_id with offset pagination, for Layout C's clients. Every call
 * resolves the id inside a workspace the caller may read (404 otherwise, as for paths),
 * then acts through the path-based page service, which checks the caller's role itself.
 */
export function createPagesById(deps: { store: Store; access: AccessService; pages: PagesService }) {
  const db = deps.store.db;

  async function visibleRows(actor: Actor, workspace: string, need: Requirement = CAN.read) {
    const { workspace: ws, role } = await deps.access.require(actor, workspace, need);
    const rows = await pagesTable.listOrderedByPath(db, ws.id, { includeRestricted: atLeast(role, 'admin') });
    return { ws, rows };
  }

  /** The row of `pageId` in a workspace the actor may read, or 404. */
  async function locate(actor: Actor, workspace: string, pageId: string) {
    const { workspace: ws, role } = await deps.access.require(actor, workspace, CAN.read);
    const row = await pagesTable.findById(db, ws.id, pageId);
    if (!row || (row.restricted === 1 && !atLeast(role, 'admin'))) throw notFound('Page');
    return { ws, row };
  }

  /** Who created each page, from the activity feed's `page_created` entries. */
  async function authorsOf(workspaceId: string, ids: string[]): Promise<Map<string, string | null>> {
    const rows = await listPageCreations(db, workspaceId, ids);
    const authors = new Map<string, string | null>();
    for (const row of rows)
      if (row.page_id && !authors.has(row.page_id)) authors.set(row.page_id, row.actor_id);
    return authors;
  }

  const item = (row: PageRow, authors: Map<string, string | null>): PageByIdItem => ({
    id: row.id,
    title: row.title,
    slug: stripPageExtension(row.path.split('/').pop() ?? row.path),
    description: row.description,
    path: row.path,
    tags: JSON.parse(row.tags) as string[],
    published: row.status === 'published',
    access: row.restricted === 1 ? 'restricted' : 'workspace',
    created_at: row.created_at,
    updated_at: row.updated_at,
    author_id: authors.get(row.id) ?? null,
  });

  function parentIdOf(row: PageRow, byPath: Map<string, PageRow>): string | null {
    for (const candidate of parentCandidates(row.path)) {
      const parent = byPath.get(candidate);
      if (parent) return parent.id;
    }
    return null;
  }

  const service = {
    /** Layout C's list: filtered by parent, tag and published state, by path, with offset paging. */
    async list(actor: Actor, workspace: string, input: ListPagesByIdInput) {
      const { ws, rows } = await visibleRows(actor, workspace);
      const byPath = new Map(rows.map((row) => [row.path, row]));
      const matching = rows.filter((row) => {
        if (input.parent_id !== undefined && parentIdOf(row, byPath) !== input.parent_id) return false;
        if (input.tag !== undefined && !(JSON.parse(row.tags) as string[]).includes(input.tag)) return false;
        if (input.published !== undefined && (row.status === 'published') !== input.published) return false;
        return true;
      });
      const slice = matching.slice(input.offset, input.offset + input.limit);
      const authors = await authorsOf(
        ws.id,
        slice.map((row) => row.id),
      );
      return {
        pages: slice.map((row) => item(row, authors)),
        total: matching.length,
        limit: input.limit,
        offset: input.offset,
      };
    },

    /** One page by id with its body, hash and parent. */
    async read(actor: Actor, workspace: string, pageId: string): Promise<PageById> {
      const { ws, row } = await locate(actor, workspace, pageId);
      const page = await deps.pages.read(actor, ws.id, row.path);
      // The read may have re-indexed a file changed on disk; the row is taken afresh.
      const current = (await pagesTable.findById(db, ws.id, pageId)) ?? row;
      let parentId: string | null = null;
      for (const candidate of parentCandidates(current.path)) {
        const parent = await pagesTable.findByPath(db, ws.id, candidate);
        if (parent) {
          parentId = parent.id;
          break;
        }
      }
      const authors = await authorsOf(ws.id, [pageId]);
      return {
        ...item(current, authors),
        content: page.content,
        content_hash: page.content_hash,
        parent_id: parentId,
      };
    },

    /** Creates a page below `parent_id` (or at the root) named by `slug` or the title. */
    async create(actor: Actor, workspace: string, input: CreatePageByIdInput): Promise<PageById> {
      const { workspace: ws } = await deps.access.require(actor, workspace, CAN.edit);
      const folder = input.parent_id
        ? childFolder((await locate(actor, ws.id, input.parent_id)).row.path)
        : '';
      const name = (input.slug ?? slugify(input.title)) || 'page';
      const path = `${folder ? `${folder}/` : ''}${name.replace(/\.md$/i, '')}.md`;
      const page = await deps.pages.create(actor, ws.id, path, {
        title: input.title,
        body: input.content,
        description: input.description,
        tags: input.tags,
        publish: input.published,
      });
      return service.read(actor, ws.id, page.page_id);
    },

    /** Replaces the body and metadata; `content_hash` must be the one last read (409 otherwise). */
    async update(actor: Actor, workspace: string, pageId: string, input: UpdatePageByIdInput) {
      const { ws, row } = await locate(actor, workspace, pageId);
      const frontmatter: Record<string, unknown> = {};
      if (input.title !== undefined) frontmatter.title = input.title;
      if (input.description !== undefined) frontmatter.description = input.description;
      if (input.tags !== undefined) frontmatter.tags = input.tags;
      if (input.published !== undefined) frontmatter.status = input.published ? 'published' : 'draft';
      await deps.pages.update(actor, ws.id, row.path, {
        body: input.content,
        lastKnownHash: input.content_hash,
        ...(Object.keys(frontmatter).length > 0 ? { frontmatter } : {}),
      });
      return service.read(actor, ws.id, pageId);
    },

    /** Deletes the page with this id. */
    async remove(actor: Actor, workspace: string, pageId: string): Promise<void> {
      const { ws, row } = await locate(actor, workspace, pageId);
      await deps.pages.remove(actor, ws.id, row.path);
    },
  };
  return service;
}

export type PagesByIdService = ReturnType<typeof createPagesById>;
