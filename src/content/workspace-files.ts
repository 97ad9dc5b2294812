import { type Stats, closeSync, constants as fsConstants, fstatSync, open, read } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { conflict, invalid, notFound } from '../errors.js';
import { isInside, isPageFileName, resolveInside } from '../domain/paths.js';
import { parsePageFile, serializePageFile } from '../domain/frontmatter.js';
import { nextLoopTurn } from '../lib/event-loop-turn.js';
import { moveFileDurable, pruneEmptyDirs, removeFileDurable, writeFileAtomic } from './atomic-write.js';

/** A page file as read from disk; `error` is set when its frontmatter is not valid YAML. */
export interface PageFile {
  text: string;
  frontmatter: Record<string, unknown>;
  body: string;
  error?: string;
}

/** The parts of a file's stat that services use (ETags, `updated_at` after a git pull). */
export interface FileStat {
  mtime: Date;
  size: number;
}

/** Top-level folder of uploaded assets; never walked for pages. */
export const UPLOADS_DIR = 'uploads';

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);
const isMissing = (err: unknown): boolean => MISSING.has((err as NodeJS.ErrnoException).code ?? '');

const openFd = promisify(open);
const readFd = promisify(read);

/**
 * Reads a regular file from its start. Asking for one byte more than fstat's `size` makes
 * the usual case a single read: a read of a regular file comes back short only at its end.
 */
async function readAll(fd: number, size: number): Promise<Buffer> {
  let buf = Buffer.allocUnsafe(size + 1);
  let length = 0;
  for (;;) {
    const wanted = buf.length - length;
    const { bytesRead } = await readFd(fd, buf, length, wanted, length);
    length += bytesRead;
    if (bytesRead < wanted) return buf.subarray(0, length);
    buf = Buffer.concat([buf, Buffer.allocUnsafe(buf.length)]); // it grew since fstat
  }
}

/**
 * A regular file's bytes and stat, or `null` when it is absent or not a regular file.
 * Opened with O_NONBLOCK, so a FIFO in the tree cannot stall the open; with `noFollow`, a
 * symlink reads as absent too. Only open and read, which may wait on the disk, go to the
 * thread pool; fstat and close of an open descriptor do not: at a thousand files, and for
 * every save, those round trips were most of a read.
 */
async function readRegularFile(
  abs: string,
  options: { noFollow?: boolean } = {},
): Promise<{ bytes: Buffer; stat: Stats } | null> {
  const noFollow = options.noFollow ? fsConstants.O_NOFOLLOW : 0;
  let fd: number;
  try {
    fd = await openFd(abs, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | noFollow);
  } catch (err) {
    if (isMissing(err) || (noFollow && (err as NodeJS.ErrnoException).code === 'ELOOP')) return null;
    throw err;
  }
  try {
    const stat = fstatSync(fd);
    return stat.isFile() ? { bytes: await readAll(fd, stat.size), stat } : null;
  } finally {
    closeSync(fd);
  }
}

/** Files above this many bytes are decoded in a turn of the event loop of their own. */
const LARGE_FILE_BYTES = 1024 * 1024;

/**
 * A page file's bytes as text, split into frontmatter and body. The text of a large file is
 * fresh memory of megabytes (30 ms of page faults for 9 MB on a small machine): it is made
 * in a turn of its own, not in the one the read completed in, where other reads' parsing
 * runs, and the caller's next pass over it (hashing, copying it to a worker) waits a turn.
 */
async function pageFromBytes(buf: Buffer): Promise<PageFile> {
  const large = buf.length > LARGE_FILE_BYTES;
  if (large) await nextLoopTurn();
  const text = buf.toString('utf8');
  if (large) await nextLoopTurn();
  return { text, ...parsePageFile(text) };
}

/**
 * The files of one workspace's working tree. Paths are workspace-relative with `/`; every
 * one is confined to the root by `resolveInside` (no `..`, no symlink escapes). It does not
 * apply `normalizePagePath`: files arriving through git may have names clients cannot create,
 * and `rebuild` must still read them, so services validate client paths before calling in.
 */
export class WorkspaceFiles {
  /** Absolute path of the workspace root. */
  readonly root: string;
  /** In a view for one turn of the workspace lock (`forLockTurn`): each path's confinement, checked once. */
  private readonly confined: Map<string, Promise<string>> | undefined;

  constructor(root: string, confined?: Map<string, Promise<string>>) {
    this.root = path.resolve(root);
    this.confined = confined;
  }

  /**
   * These files for one turn of the workspace lock, checking each path's confinement once
   * (its real path is a trip through the thread pool): a batch of saves reads each page and
   * then writes it, and nothing puts a symlink into the tree while the lock is held (git
   * and reconciliation take it; Folio writes no symlinks). Drop the view with the lock.
   */
  forLockTurn(): WorkspaceFiles {
    return new WorkspaceFiles(this.root, new Map());
  }

  /** The absolute path of `relPath`, or `invalid('path', …)` if it is empty or escapes the root. */
  async resolve(relPath: string): Promise<string> {
    if (typeof relPath !== 'string' || relPath === '' || relPath.endsWith('/')) {
      throw invalid('path', 'Path must name a file');
    }
    if (!this.confined) return resolveInside(this.root, relPath);
    let resolved = this.confined.get(relPath);
    if (!resolved) {
      resolved = resolveInside(this.root, relPath);
      this.confined.set(relPath, resolved);
    }
    return resolved;
  }

  /** The page file split into frontmatter and body, or `null` when no such file exists. */
  async read(relPath: string): Promise<PageFile | null> {
    const buf = await this.readRaw(relPath);
    return buf === null ? null : pageFromBytes(buf);
  }

  /**
   * A page that `listPages()` (or `walk()`) just listed, with its mtime: for scanning a
   * whole tree, where `read` and `stat` would each resolve real paths again. The walk never
   * follows a symlink, so a listed path has none; opening it with O_NOFOLLOW refuses a file
   * swapped for a symlink since, which reads as gone (`null`), as a symlink is not a page
   * (and O_NONBLOCK keeps a FIFO swapped in from stalling the open).
   */
  async readListed(relPath: string): Promise<{ file: PageFile; stat: FileStat } | null> {
    const abs = path.resolve(this.root, relPath);
    if (abs === this.root || !isInside(this.root, abs)) throw invalid('path', 'Path escapes the workspace');
    const read = await readRegularFile(abs, { noFollow: true });
    if (!read) return null;
    const { bytes, stat } = read;
    return { file: await pageFromBytes(bytes), stat: { mtime: stat.mtime, size: stat.size } };
  }

  /** The raw bytes of any file in the tree (uploads, conflict artefacts), or `null` when absent or not a regular file. */
  async readRaw(relPath: string): Promise<Buffer | null> {
    return (await readRegularFile(await this.resolve(relPath)))?.bytes ?? null;
  }

  /** Serializes and atomically writes a page (see `serializePageFile`); returns the text written. */
  async write(relPath: string, frontmatter: Record<string, unknown>, body: string): Promise<string> {
    const text = serializePageFile(frontmatter, body);
    await this.writeRaw(relPath, text);
    return text;
  }

  /** Atomically writes any file in the tree, creating its folders. */
  async writeRaw(relPath: string, data: string | Buffer): Promise<void> {
    await writeFileAtomic(await this.resolve(relPath), data);
  }

  /** Deletes a file and any folders it leaves empty; `false` when it did not exist. */
  async remove(relPath: string): Promise<boolean> {
    const abs = await this.resolve(relPath);
    const removed = await removeFileDurable(abs);
    if (removed) await pruneEmptyDirs(path.dirname(abs), this.root);
    return removed;
  }

  /**
   * Moves a file, creating the destination's folders and pruning the ones it leaves empty.
   * Throws NOT_FOUND when `from` is not a file and CONFLICT when `to` already exists
   * (checked just before the rename; services serialize writes per workspace).
   */
  async move(from: string, to: string): Promise<void> {
    const [absFrom, absTo] = await Promise.all([this.resolve(from), this.resolve(to)]);
    if (!(await this.exists(from))) throw notFound('Page');
    if (absFrom === absTo) return;
    if (await this.statAbs(absTo)) throw conflict(`A file already exists at ${to}`);
    await moveFileDurable(absFrom, absTo);
    await pruneEmptyDirs(path.dirname(absFrom), this.root);
  }

  /** Whether `relPath` is an existing regular file (a folder does not count). */
  async exists(relPath: string): Promise<boolean> {
    return (await this.stat(relPath)) !== null;
  }

  /** Modification time and size of a regular file, or `null` when there is none. */
  async stat(relPath: string): Promise<FileStat | null> {
    return this.statAbs(await this.resolve(relPath));
  }

  private async statAbs(abs: string): Promise<FileStat | null> {
    try {
      const s = await stat(abs);
      return s.isFile() ? { mtime: s.mtime, size: s.size } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  /**
   * Yields the path of every page (`*.md` or `*.mdx` regular file), depth-first in name order. Skips
   * hidden entries (`.git`, `.folio`, temp files), the top-level `uploads/` folder and
   * symlinks (a symlinked folder could loop or lead outside the root).
   */
  async *walk(): AsyncIterable<string> {
    yield* this.walkDir('');
  }

  private async *walkDir(relDir: string): AsyncIterable<string> {
    let entries;
    try {
      entries = await readdir(relDir ? path.join(this.root, relDir) : this.root, { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (rel !== UPLOADS_DIR) yield* this.walkDir(rel);
      } else if (entry.isFile() && isPageFileName(entry.name)) {
        yield rel;
      }
    }
  }

  /**
   * Yields the path of every regular file that is not a page, in the same order and with
   * the same exclusions as {@link walk} (hidden entries, symlinks), `uploads/` included:
   * the attachments and assets a repository's pages may reference. Stops after `limit`.
   */
  async *walkFiles(limit = 100_000): AsyncIterable<string> {
    let count = 0;
    const dirs = [''];
    while (dirs.length > 0 && count < limit) {
      const relDir = dirs.pop()!;
      let entries;
      try {
        entries = await readdir(relDir ? path.join(this.root, relDir) : this.root, { withFileTypes: true });
      } catch (err) {
        if (isMissing(err)) continue;
        throw err;
      }
      for (const entry of entries) {
        if (entry.name.startsWith('.')) continue;
        const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
        if (entry.isDirectory()) dirs.push(rel);
        else if (entry.isFile() && !isPageFileName(entry.name) && count++ < limit) yield rel;
      }
    }
  }

  /** Every page path, sorted by code unit (stable across platforms and locales). */
  async listPages(): Promise<string[]> {
    const pages: string[] = [];
    for await (const p of this.walk()) pages.push(p);
    return pages.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
}
