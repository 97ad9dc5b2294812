import { Readable } from 'node:stream';
import type { Kysely, Selectable } from 'kysely';
import { HEAD_BYTES, isPlainName, trimToCharBoundary } from '../../content/upload-files.js';
import { UPLOADS_DIR } from '../../content/workspace-files.js';
import { parsePageFile, readPageMeta } from '../../domain/frontmatter.js';
import type { WorkspaceRepo } from '../../git/repository.js';
import type { Database, DocVersionsTable } from '../../store/schema.js';
import type { SitePage } from './site/nav.js';
import { describeUpload, type ServedUpload } from '../pages/uploads.js';

/** A version loaded for serving: its pages, their bodies, and its uploads as they were. */
export interface FrozenVersion {
  pages: SitePage[];
  bodies: Map<string, string>;
  openUpload(name: string): Promise<ServedUpload | null>;
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
  db: Kysely<Database>,
  row: Selectable<DocVersionsTable>,
): Promise<FrozenVersion> {
  const entries = await db
    .selectFrom('doc_version_pages')
    .selectAll()
    .where('version_id', '=', row.id)
    .execute();
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
  return {
    pages,
    bodies,
    async openUpload(name: string) {
      if (!isPlainName(name)) return null;
      const bytes = await repo.showFileBytes(row.tag, `${UPLOADS_DIR}/${name}`);
      if (!bytes) return null;
      const head = bytes.length > HEAD_BYTES ? trimToCharBoundary(bytes.subarray(0, HEAD_BYTES)) : bytes;
      return {
        stream: Readable.from([bytes]),
        size: bytes.length,
        ...describeUpload(head),
        filename: name,
      };
    },
  };
}
