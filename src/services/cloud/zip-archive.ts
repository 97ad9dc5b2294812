import type * as Yazl from 'yazl';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { TEMP_PREFIX } from '../../content/atomic-write.js';
import { importPackage } from '../../lib/import-package.js';

/** A ZIP to send: its file name and the stream that writes it. */
export interface Download {
  filename: string;
  stream: Readable;
}

/** One entry of a ZIP being built: a JSON document, or a file on disk read while the ZIP streams. */
export type ArchiveEntry = { name: string; json: unknown } | { name: string; file: string };

/**
 * A ZIP streamed while it is written (yazl): JSON documents pretty-printed, files read
 * from disk one at a time as the stream reaches them, never all open at once. yazl is
 * loaded on the first export, not at start.
 */
export async function streamArchive(entries: readonly ArchiveEntry[]): Promise<Readable> {
  const { ZipFile } = await importPackage<typeof Yazl>('yazl');
  const zip = new ZipFile();
  for (const entry of entries) {
    if ('json' in entry) {
      zip.addBuffer(Buffer.from(`${JSON.stringify(entry.json, null, 2)}\n`), entry.name);
      continue;
    }
    zip.addReadStreamLazy(entry.name, (done) => {
      const stream = fs.createReadStream(entry.file);
      stream.once('open', () => done(null, stream));
      stream.once('error', (err) => done(err, undefined as never));
    });
  }
  zip.end();
  return zip.outputStream as Readable;
}

/**
 * Every regular file under `root`, as paths relative to it with `/` separators, leaving out
 * git's own directory, temp files of writes in progress and anything that is not a plain
 * file (symlinks could point outside the workspace).
 */
export async function listTreeFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(dir: string, prefix: string): Promise<void> {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.name === '.git' || entry.name.startsWith(TEMP_PREFIX)) continue;
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), rel);
      else if (entry.isFile()) found.push(rel);
    }
  }
  await walk(root, '');
  return found;
}
