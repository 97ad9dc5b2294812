import { Readable } from 'node:stream';
import { HEAD_BYTES, isPlainName, trimToCharBoundary } from '../../content/upload-files.js';
import { UPLOADS_DIR } from '../../content/workspace-files.js';
import { parsePageFile, readPageMeta } from '../../domain/frontmatter.js';
import type { TreeEntry, WorkspaceRepo } from '../../git/repository.js';
import type { Queryable } from '../../store/repositories/queryable.js';
import { type DocVersionRow, listPagesOfVersion } from '../../store/repositories/versions.js';
import type { SitePage } from './site/nav.js';
import { describeUpload, MAX_UPLOAD_BYTES, type ServedUpload } from '../pages/uploads.js';
import { isServableAssetPath } from './site/assets.js';

/** A version loaded for serving: its pages, their bodies, and its uploads as they were. */
export interface FrozenVersion {
  pages: SitePage[];
  bodies: Map<string, string>;
  openUpload(name: string): Promise<ServedUpload | null>;
  /** Every regular file of the tagged tree (symlinks and submodules left out). */
  listFiles(): Promise<string[]>;
  /** A repository file as it was at the tag, with the live assets' rules; null when refused or absent. */
  openAsset(path: string): Promise<ServedUpload | null>;
}

/** Regular files only: a symlink (120000) could name anything outside the tree, a submodule has no bytes here. */
const REGULAR_MODES = new Set(['100644', '100755']);

/** Serves bytes read from git, typed from their head as an upload on disk is. */
function served(bytes: Buffer, filename: string): ServedUpload {
  const head = bytes.length > HEAD_BYTES ? trimToCharBoundary(bytes.subarray(0, HEAD_BYTES)) : bytes;
  return { stream: Readable.from([bytes]), size: bytes.length, ...describeUpload(head), filename };
}

/** Git reads for a version's files run a few at a time, not one process per page at once. */
const READ_CONCURRENCY = 8;

/**
 * Reads a version's frozen pages back from its git tag: the index rows say which files,
 * the tag holds their text as it was (frontmatter included, for descriptions and order).
 * Uploads are read from the tag too, so a version keeps the images it was made with.
 */
export async function loadFrozenVersion(
  repo: WorkspaceRepo,
  db: Queryable,
  row: DocVersionRow,
): Promise<FrozenVersion> {
  const entries = await listPagesOfVersion(db, row.id);
  const bodies = new Map<string, string>();
  const pages: SitePage[] = [];
  for (let i = 0; i < entries.length; i += READ_CONCURRENCY) {
    await Promise.all(
      entries.slice(i, i + READ_CONCURRENCY).map(async (entry) => {
        const text = await repo.showFile(row.tag, entry.path);
        if (text === null) return;
        const file = parsePageFile(text);
        const meta = file.error === undefined ? readPageMeta(file.frontmatter) : undefined;
        bodies.set(entry.path, file.body);
        pages.push({
          id: entry.page_id,
          path: entry.path,
          title: entry.title,
          description: meta?.description ?? '',
          sortOrder: meta?.order ?? 0,
          contentHash: entry.content_hash,
          updatedAt: row.created_at,
        });
      }),
    );
  }
  // The tag never moves, so one listing serves the version for as long as it is loaded.
  let tree: Promise<Map<string, TreeEntry>> | undefined;
  const files = (): Promise<Map<string, TreeEntry>> => {
    tree ??= repo
      .listTreeAt(row.tag)
      .then(
        (entries) =>
          new Map(
            entries
              .filter((e) => e.type === 'blob' && REGULAR_MODES.has(e.mode))
              .map((e) => [e.path, e] as const),
          ),
      );
    // A failed read must not be remembered: the next request tries again.
    tree.catch(() => (tree = undefined));
    return tree;
  };
  const blobAt = async (path: string, filename: string): Promise<ServedUpload | null> => {
    const entry = (await files()).get(path);
    if (!entry || entry.size > MAX_UPLOAD_BYTES) return null;
    const bytes = await repo.readBlob(entry.object);
    return bytes ? served(bytes, filename) : null;
  };
  return {
    pages,
    bodies,
    async openUpload(name: string) {
      return isPlainName(name) ? blobAt(`${UPLOADS_DIR}/${name}`, name) : null;
    },
    listFiles: async () => [...(await files()).keys()],
    async openAsset(path: string) {
      return isServableAssetPath(path) ? blobAt(path, path.slice(path.lastIndexOf('/') + 1)) : null;
    },
  };
}
