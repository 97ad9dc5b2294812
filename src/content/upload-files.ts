import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, link, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { suffixUploadName } from '../domain/paths.js';
import { fsyncDir, tempPathBeside } from './atomic-write.js';
import { UPLOADS_DIR, type WorkspaceFiles } from './workspace-files.js';

/** Numbered names tried before falling back to a random suffix (`a.png`, `a-2.png` … `a-99.png`). */
const MAX_NUMBERED = 99;

/** The names `storeUpload` tries for `name`, in order. */
function* candidateNames(name: string): Iterable<string> {
  yield name;
  for (let n = 2; n <= MAX_NUMBERED; n++) yield suffixUploadName(name, String(n));
  for (;;) yield suffixUploadName(name, randomBytes(4).toString('hex'));
}

/**
 * Stores `data` under `uploads/` with `name` (already normalized), or with the first free
 * `name-N` variant, and returns the name used. Never replaces an existing file, even when
 * two uploads of one name race or another process writes there: the bytes go to a hidden
 * temp file, are fsynced, then hard-linked to the final name, which fails instead of
 * overwriting when the name is taken. A crash leaves either no file or the whole file.
 */
export async function storeUpload(files: WorkspaceFiles, name: string, data: Buffer): Promise<string> {
  // Resolving a name inside uploads/ confirms the folder cannot lead out of the tree (a
  // symlink committed through git) before anything is written there.
  const dir = path.dirname(await files.resolve(`${UPLOADS_DIR}/${name}`));
  const created = await mkdir(dir, { recursive: true });
  if (created !== undefined) await fsyncDir(path.dirname(dir));
  const tmp = tempPathBeside(path.join(dir, name));
  const fh = await open(tmp, 'wx');
  try {
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    for (const candidate of candidateNames(name)) {
      if (await placeExclusive(tmp, path.join(dir, candidate))) {
        await fsyncDir(dir);
        return candidate;
      }
    }
    throw new Error('unreachable: candidate names are endless');
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/** Links `tmp` to `target` unless `target` exists; false when it does. */
async function placeExclusive(tmp: string, target: string): Promise<boolean> {
  try {
    await link(tmp, target);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // Filesystems without hard links: check, then rename (racy only against another writer
    // choosing the same name in the same instant).
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
    if (
      await stat(target).then(
        () => true,
        () => false,
      )
    )
      return false;
    await rename(tmp, target);
    return true;
  }
}

/** An upload opened for serving: read `head` to decide its type, then stream the handle. */
export interface OpenedUpload {
  handle: FileHandle;
  size: number;
  /** Up to HEAD_BYTES from the start, cut at a UTF-8 character boundary. */
  head: Buffer;
}

/** How much of a file is read to recognise its type when serving it. */
export const HEAD_BYTES = 64 * 1024;

/**
 * Opens `uploads/<name>` for reading, or returns null when there is no such regular file.
 * `name` must be a single path segment that is not hidden; anything else is treated as
 * absent, so a request can never name a temp file or climb out of the folder.
 */
export async function openUpload(files: WorkspaceFiles, name: string): Promise<OpenedUpload | null> {
  return isPlainName(name) ? openConfinedFile(files, `${UPLOADS_DIR}/${name}`) : null;
}

/**
 * Opens the workspace file at `path` for serving, or returns null when it is not a regular
 * file inside the tree (or is larger than `maxBytes`). The file is opened without following
 * a final symlink and checked on the open handle, so what is checked is what is served.
 * Callers check the path's own rules (segments, hidden names) first.
 */
export async function openConfinedFile(
  files: WorkspaceFiles,
  path: string,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<OpenedUpload | null> {
  let abs: string;
  try {
    abs = await files.resolve(path);
  } catch {
    return null;
  }
  let handle: FileHandle;
  try {
    handle = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > maxBytes) {
      await handle.close();
      return null;
    }
    const buf = Buffer.alloc(Math.min(HEAD_BYTES, info.size));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead);
    return { handle, size: info.size, head: bytesRead < info.size ? trimToCharBoundary(head) : head };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** One segment, not hidden, no separators or NUL, at most 255 bytes. */
export function isPlainName(name: string): boolean {
  return (
    typeof name === 'string' &&
    name !== '' &&
    !name.startsWith('.') &&
    !/[/\\\0]/.test(name) &&
    Buffer.byteLength(name, 'utf8') <= 255
  );
}

/**
 * Drops a UTF-8 sequence cut off at the end of a partial read, so a text file's head is
 * still valid UTF-8 and is recognised as the text it is.
 */
export function trimToCharBoundary(buf: Buffer): Buffer {
  for (let back = 1; back <= Math.min(4, buf.length); back++) {
    const byte = buf[buf.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const expected = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return expected > back ? buf.subarray(0, buf.length - back) : buf;
  }
  return buf;
}
