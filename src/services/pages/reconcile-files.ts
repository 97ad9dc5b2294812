/** The file side of reconciling a workspace: reading every page of its tree, writing page ids back. */
import type { PageFile, WorkspaceFiles } from '../../content/workspace-files.js';
import { readPageMeta } from '../../domain/frontmatter.js';
import { normalizePagePath } from '../../domain/paths.js';

export const ULID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Files read (or written) at once: enough to keep libuv's thread pool and the disk busy
 * while a thousand pulled files are read, few enough that other requests' file work is not
 * queued behind the whole tree.
 */
const FILES_AT_ONCE = 16;

/** A page file found in the tree. */
export interface Found {
  path: string;
  file: PageFile;
  /** The file's mtime: when the content on disk last changed. */
  mtime: string;
  /** The frontmatter's `id` when it is a well-formed page id. */
  fmId: string | undefined;
}

/** A page file the index leaves out, and why, for the people who put it there. */
export interface SkippedFile {
  path: string;
  reason: string;
}

/** Why the API could not address the page file at `p`, or null when it can. */
function whyUnaddressable(p: string): string | null {
  try {
    const canonical = normalizePagePath(p);
    return canonical === p ? null : `Folio addresses this page as "${canonical}"; rename the file to that`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Sorts the tree's page files into those the index takes and those it must leave out. */
function sortPages(paths: readonly string[]): { readable: string[]; skipped: SkippedFile[] } {
  const readable: string[] = [];
  const skipped: SkippedFile[] = [];
  for (const path of paths) {
    const reason = whyUnaddressable(path);
    if (reason === null) readable.push(path);
    else skipped.push({ path, reason });
  }
  return { readable, skipped };
}

/** The page files of the tree that cannot be indexed (reserved or non-canonical names), with why. */
export async function unindexableFiles(files: WorkspaceFiles): Promise<SkippedFile[]> {
  return sortPages(await files.listPages()).skipped;
}

/**
 * Runs `work` for every item, at most `limit` at a time, and settles only when none is
 * running any more (the caller's lock must outlast every write); after a failure no new
 * item starts, and the first error is thrown.
 */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        await work(items[i]!, i);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
}

/**
 * Every page file of the tree, in path order, read with its mtime; `skipped` lists the
 * files the API could not address (reserved or non-canonical names) and the files above
 * `maxPageBytes`, which are neither read nor indexed (parsing, hashing and indexing a file
 * of tens of megabytes would hold the server up for a minute), each with the reason.
 */
export async function scanPages(
  files: WorkspaceFiles,
  maxPageBytes = Infinity,
): Promise<{ found: Found[]; skipped: SkippedFile[] }> {
  const { readable, skipped } = sortPages(await files.listPages());
  const oversized = new Set<string>();
  const read: Array<Found | undefined> = new Array(readable.length);
  await eachLimited(readable, FILES_AT_ONCE, async (path, i) => {
    const size = maxPageBytes === Infinity ? 0 : ((await files.stat(path))?.size ?? 0);
    if (size > maxPageBytes) {
      oversized.add(path);
      return;
    }
    const listed = await files.readListed(path);
    if (!listed) return; // removed while we walked
    const { file, stat } = listed;
    const id = file.error === undefined ? readPageMeta(file.frontmatter).id : undefined;
    read[i] = { path, file, mtime: stat.mtime.toISOString(), fmId: id && ULID_RE.test(id) ? id : undefined };
  });
  for (const path of readable.filter((p) => oversized.has(p))) {
    skipped.push({
      path,
      reason: `larger than the ${maxPageBytes}-byte limit for pages (GIT_MAX_PAGE_BYTES)`,
    });
  }
  return { found: read.filter((f): f is Found => f !== undefined), skipped };
}

/**
 * Writes each page's id into the frontmatter of its file (atomically, several files at a
 * time: a first sync writes one into every file it pulled) and answers the files as written.
 */
export async function writePageIds(
  files: WorkspaceFiles,
  pages: ReadonlyArray<{ found: Found; id: string }>,
): Promise<Map<string, Pick<PageFile, 'frontmatter' | 'body'>>> {
  const written = new Map<string, Pick<PageFile, 'frontmatter' | 'body'>>();
  await eachLimited(pages, FILES_AT_ONCE, async ({ found: f, id }) => {
    const frontmatter = { ...f.file.frontmatter, id };
    await files.write(f.path, frontmatter, f.file.body);
    written.set(f.path, { frontmatter, body: f.file.body });
  });
  return written;
}
