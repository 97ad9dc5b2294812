import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { link, mkdir, open, rename, rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../domain/paths.js';
import { textSlices } from '../lib/text-slices.js';

/** Prefix of in-flight temp files; hidden (leading dot) so walkers and git status skip them. */
export const TEMP_PREFIX = '.folio-tmp-';

/**
 * Writes `data` to `absPath` so that a crash leaves either the old file or the new one,
 * never a torn mix: temp file in the same directory (same filesystem, so rename is atomic),
 * fsync, rename over the target, fsync the directory so the rename itself is durable.
 * Missing parent directories are created durably. The temp file is removed on failure.
 * The new file gets `mode` (default 0644 less the umask); the old file's mode is not carried over.
 */
export async function writeFileAtomic(
  absPath: string,
  data: string | Buffer,
  options: { mode?: number } = {},
): Promise<void> {
  const staged = await stageFile(absPath, data, options);
  await staged.commit();
  await fsyncDir(path.dirname(absPath));
}

/** A file's new content, written and fsynced beside it, not yet in place. */
export interface StagedFile {
  /** Renames the staged content over the target (no directory fsync: the caller does it, once per directory). */
  commit(): Promise<void>;
  /** Removes the staged content, leaving the target as it was. */
  discard(): Promise<void>;
}

/**
 * The first half of `writeFileAtomic`, for writing many files as one group: the temp
 * file is written and fsynced now, so several can be staged in parallel; `commit`
 * renames it into place, and the caller fsyncs each directory once after all renames
 * (`fsyncDir`) before calling any of them durable.
 */
export async function stageFile(
  absPath: string,
  data: string | Buffer,
  options: { mode?: number } = {},
): Promise<StagedFile> {
  const tmp = await writeTempBeside(absPath, data, options.mode);
  const discard = () =>
    unlink(tmp).then(
      () => undefined,
      () => undefined,
    );
  return {
    async commit() {
      try {
        await rename(tmp, absPath);
      } catch (err) {
        await discard();
        throw err;
      }
    },
    discard,
  };
}

/**
 * Creates `absPath` with `data` only if nothing is there yet, durably and atomically: the
 * content is written and fsynced under a temporary name, then hard-linked into place,
 * which fails when the name exists. Answers false (writing nothing) when it did exist, so
 * of several processes racing to create one file exactly one wins and the others read it.
 */
export async function createFileExclusive(
  absPath: string,
  data: string | Buffer,
  options: { mode?: number } = {},
): Promise<boolean> {
  const dir = path.dirname(absPath);
  const tmp = await writeTempBeside(absPath, data, options.mode);
  try {
    await link(tmp, absPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
  await fsyncDir(dir);
  return true;
}

let processTag: string | undefined;
let tempFiles = 0;

/**
 * A new temp file's path in `absPath`'s directory. A counter keeps the names of one process
 * apart; a tag drawn once (the pid and random bytes) keeps them apart from other processes'
 * and from leftovers of an earlier process that had the same pid. A random draw for every
 * name was a measurable share of a save.
 */
export function tempPathBeside(absPath: string): string {
  processTag ??= `${process.pid}-${randomBytes(6).toString('hex')}`;
  return path.join(path.dirname(absPath), `${TEMP_PREFIX}${processTag}-${(++tempFiles).toString(36)}`);
}

/**
 * Writes and fsyncs `data` to a new temporary file in `absPath`'s directory (created
 * durably if missing), on the same filesystem so it can be renamed or linked into place.
 * Answers the temporary path; on failure nothing is left behind.
 */
/** Characters of text encoded and written at a time (see textSlices). */
const WRITE_SLICE = 512 * 1024;

async function writeTempBeside(absPath: string, data: string | Buffer, mode = 0o644): Promise<string> {
  const tmp = tempPathBeside(absPath);
  try {
    const fh = await openCreatingDirectory(tmp, mode);
    try {
      // A text of megabytes (a page's) goes out a slice at a time, each encoded on its own.
      await writeFile(
        fh,
        typeof data === 'string' && data.length > WRITE_SLICE ? textSlices(data, WRITE_SLICE) : data,
      );
      await fh.sync();
    } finally {
      await fh.close();
    }
    return tmp;
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/**
 * Creates `file` for writing, and its directory first if it is missing: the directory is
 * made only after an open failed for want of it, since a save nearly always lands in a
 * folder that exists, and the thread pool's round trip for mkdir was one of a save's ten.
 */
async function openCreatingDirectory(file: string, mode: number): Promise<FileHandle> {
  try {
    return await open(file, 'wx', mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdirDurable(path.dirname(file));
  return open(file, 'wx', mode);
}

/**
 * Deletes a file and fsyncs its directory so the deletion survives a crash.
 * Returns `false` (and does nothing) when the file did not exist.
 */
export async function removeFileDurable(absPath: string): Promise<boolean> {
  try {
    await unlink(absPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  await fsyncDir(path.dirname(absPath));
  return true;
}

/**
 * Renames `from` to `to` (creating `to`'s parent directories) and fsyncs both directories.
 * Like rename(2) it replaces an existing `to`, so callers check for conflicts first;
 * both paths must be on one filesystem (they are: one workspace tree).
 */
export async function moveFileDurable(from: string, to: string): Promise<void> {
  const fromDir = path.dirname(from);
  const toDir = path.dirname(to);
  await mkdirDurable(toDir);
  await rename(from, to);
  await fsyncDir(toDir);
  if (fromDir !== toDir) await fsyncDir(fromDir);
}

/**
 * Removes `dir` and then each parent that became empty, stopping at `stopAt` (never removed)
 * or at the first directory that still has entries. Keeps a folder that lost its last page
 * from lingering in the tree; git does not track empty folders either.
 */
export async function pruneEmptyDirs(dir: string, stopAt: string): Promise<void> {
  const root = path.resolve(stopAt);
  let current = path.resolve(dir);
  while (current !== root && isInside(root, current)) {
    try {
      await rmdir(current);
    } catch {
      return; // not empty, already gone, or not ours to remove
    }
    current = path.dirname(current);
    await fsyncDir(current);
  }
}

/** `mkdir -p` that also fsyncs the parent of every directory it created. */
async function mkdirDurable(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined) return;
  // Every directory from the first one created down to `dir` is new; its entry lives in its parent.
  const created: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    created.push(d);
    if (d === path.resolve(first) || d === path.dirname(d)) break;
  }
  for (const d of created.reverse()) await fsyncDir(path.dirname(d));
}

/** fsync a directory; platforms that cannot (EISDIR/EPERM/EINVAL on some systems) are skipped. */
export async function fsyncDir(dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw err;
  } finally {
    await fh?.close();
  }
}
