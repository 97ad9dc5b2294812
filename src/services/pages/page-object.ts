import type { PageFile } from '../../content/workspace-files.js';
import { contentHash, frontmatterHash, readPageMeta, statusIsSet } from '../../domain/frontmatter.js';
import { titleFromPath } from '../../domain/page-write.js';
import type { SearchDocument, SearchIndex } from '../../search/search-index.js';
import type { Queryable } from '../../store/repositories/queryable.js';
import type { PageRow, WorkspaceRow } from '../../store/schema.js';
import { readSettings } from '../workspaces/settings.js';

export type FrontmatterMode = 'strict' | 'lenient';

/** The API's page object, plus the index's own view of the page. */
export interface PageObject {
  page_id: string;
  path: string;
  title: string;
  description: string;
  content: string;
  content_hash: string;
  frontmatter_hash: string;
  tags: string[];
  status: string;
  sort_order: number;
  created_at: string;
  updated_at: string;
  /** Id of the user who last saved through Folio; null after an edit on disk or by git. */
  updated_by: string | null;
  /** The lenient-mode warning: why the frontmatter on disk was not used. */
  frontmatter_error: string | null;
  /** Strict mode: invalid frontmatter, visible to admins only. */
  restricted: boolean;
}

// The page-write rules own these; the page helpers' callers find them here too.
export { replaceBody, titleFromPath } from '../../domain/page-write.js';

const INT_LIMIT = 2_147_483_647;

/** A frontmatter `order` as the integer column stores it (rounded, clamped to 32 bits for PostgreSQL). */
export const sortOrderOf = (order: number | undefined): number =>
  order === undefined ? 0 : Math.max(-INT_LIMIT, Math.min(INT_LIMIT, Math.round(order)));

/** The workspace's frontmatter mode: its own setting, else the instance's FRONTMATTER_MODE. */
export function frontmatterModeOf(workspace: WorkspaceRow, fallback: FrontmatterMode): FrontmatterMode {
  return readSettings(workspace, { frontmatterMode: fallback }).frontmatter_mode;
}

/** The status a page of this workspace has when its frontmatter sets none. */
export function defaultStatusOf(workspace: Pick<WorkspaceRow, 'settings' | 'name'>): 'draft' | 'published' {
  return readSettings(workspace, { frontmatterMode: 'lenient' }).default_page_status;
}

export interface RowSource {
  id: string;
  workspaceId: string;
  path: string;
  file: Pick<PageFile, 'frontmatter' | 'body' | 'error'>;
  /** The row this file had before, if any: lenient and strict modes fall back to its metadata. */
  previous: PageRow | undefined;
  mode: FrontmatterMode;
  now: string;
  updatedBy: string | null;
  /** The workspace's `default_page_status`, for frontmatter without a status ('draft' when absent). */
  defaultStatus?: 'draft' | 'published';
}

/**
 * The index row for a page file. Valid frontmatter is the truth. Invalid
 * frontmatter keeps the last good metadata of `previous` (or defaults from
 * the path) and records the error; strict mode also restricts the page.
 */
export function rowFor(src: RowSource): PageRow {
  const { file, previous } = src;
  const base = {
    id: src.id,
    workspace_id: src.workspaceId,
    path: src.path,
    content_hash: contentHash(file.body),
    created_at: previous?.created_at ?? src.now,
    updated_at: src.now,
    updated_by: src.updatedBy,
  };
  if (file.error === undefined) {
    const meta = readPageMeta(file.frontmatter);
    return {
      ...base,
      title: meta.title ?? titleFromPath(src.path),
      description: meta.description ?? '',
      tags: JSON.stringify(meta.tags),
      status: statusIsSet(file.frontmatter) ? meta.status : (src.defaultStatus ?? 'draft'),
      sort_order: sortOrderOf(meta.order),
      frontmatter_hash: frontmatterHash(file.frontmatter),
      frontmatter_error: null,
      restricted: 0,
    };
  }
  return {
    ...base,
    title: previous?.title ?? titleFromPath(src.path),
    description: previous?.description ?? '',
    tags: previous?.tags ?? '[]',
    status: previous?.status ?? 'draft',
    sort_order: previous?.sort_order ?? 0,
    frontmatter_hash: previous?.frontmatter_hash ?? frontmatterHash({}),
    frontmatter_error: file.error,
    restricted: src.mode === 'strict' ? 1 : 0,
  };
}

/**
 * Whether the index row still describes the file: same body, and the same
 * frontmatter (or, for a file whose frontmatter is broken, an error recorded).
 */
export function inSync(row: PageRow, file: PageFile): boolean {
  if (row.content_hash !== contentHash(file.body)) return false;
  if (file.error !== undefined) return row.frontmatter_error !== null;
  return (
    row.frontmatter_error === null &&
    row.frontmatter_hash === frontmatterHash(file.frontmatter) &&
    readPageMeta(file.frontmatter).id === row.id
  );
}

/** True when two rows differ in anything but their timestamps and author. */
export function rowChanged(a: PageRow, b: PageRow): boolean {
  const keys = [
    'path',
    'title',
    'description',
    'tags',
    'status',
    'sort_order',
    'content_hash',
    'frontmatter_hash',
    'frontmatter_error',
    'restricted',
  ] as const;
  return keys.some((k) => a[k] !== b[k]);
}

export const parseTags = (json: string): string[] => {
  try {
    const tags: unknown = JSON.parse(json);
    return Array.isArray(tags) ? tags.map(String) : [];
  } catch {
    return [];
  }
};

/** The API's page object from the index row and the body on disk. */
export function presentPage(row: PageRow, body: string): PageObject {
  return {
    page_id: row.id,
    path: row.path,
    title: row.title,
    description: row.description,
    content: body,
    content_hash: row.content_hash,
    frontmatter_hash: row.frontmatter_hash,
    tags: parseTags(row.tags),
    status: row.status,
    sort_order: row.sort_order,
    created_at: row.created_at,
    updated_at: row.updated_at,
    updated_by: row.updated_by,
    frontmatter_error: row.frontmatter_error,
    restricted: row.restricted === 1,
  };
}

const searchDocument = (row: PageRow, body: string, plainText?: string): SearchDocument => ({
  page_id: row.id,
  workspace_id: row.workspace_id,
  path: row.path,
  title: row.title,
  description: row.description,
  tags: parseTags(row.tags),
  body,
  ...(plainText === undefined ? {} : { plainText }),
  status: row.status,
  restricted: false,
});

/** indexForSearch for many pages at once, with a few statements per batch instead of per page. */
export async function indexManyForSearch(
  trx: Queryable,
  search: SearchIndex,
  pages: ReadonlyArray<{ row: PageRow; body: string; plainText?: string | undefined }>,
): Promise<void> {
  await search.removeMany(
    trx,
    pages.filter((p) => p.row.restricted === 1).map((p) => p.row.id),
  );
  await search.upsertMany(
    trx,
    pages.filter((p) => p.row.restricted !== 1).map((p) => searchDocument(p.row, p.body, p.plainText)),
  );
}

/**
 * Brings the page's search document in line with its row, in the caller's
 * transaction. Restricted pages are removed so strict mode keeps them out of
 * search whatever the index implementation filters.
 */
export async function indexForSearch(
  trx: Queryable,
  search: SearchIndex,
  row: PageRow,
  body: string,
): Promise<void> {
  if (row.restricted === 1) {
    await search.remove(trx, row.id);
    return;
  }
  await search.upsert(trx, searchDocument(row, body));
}
