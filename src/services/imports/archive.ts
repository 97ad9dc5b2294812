/**
 * An export to import, as a map of its files: read from a ZIP (after the same archive-bomb
 * checks as uploaded ZIPs, with an import's larger bounds) or from a folder on disk (the
 * CLI). Names are normalised to forward-slash relative paths; a name that would leave the
 * export, and the files archivers add (`__MACOSX/`, `.DS_Store`), are left out. A ZIP whose
 * only files are ZIPs (Notion splits large exports into parts) is opened one level down.
 */
import type * as Yauzl from 'yauzl';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkZipBomb, type ZipLimits } from '../../content/upload-sniff.js';
import { invalid } from '../../errors.js';
import { importPackage } from '../../lib/import-package.js';

/** The files of an export by relative path. */
export type ExportFiles = Map<string, Buffer>;

const MB = 1024 * 1024;
/** The largest ZIP an import accepts. */
export const MAX_IMPORT_BYTES = 100 * MB;
/** 20,000 files, 300 MB unpacked, 50 MB a file: a large wiki space, not a bomb. */
export const IMPORT_ZIP_LIMITS: Partial<ZipLimits> = {
  maxEntries: 20_000,
  maxTotalUncompressed: 300 * MB,
  maxEntryUncompressed: 50 * MB,
};

/** A safe relative name, or null for one to leave out. */
function cleanName(raw: string): string | null {
  const name = raw.replace(/\\/g, '/').replace(/^\/+/, '');
  const parts = name.split('/');
  if (parts.some((p) => p === '..' || p === '.')) return null;
  if (parts[0] === '__MACOSX' || parts.some((p) => p === '.DS_Store' || p === '')) return null;
  return name;
}

async function unzip(buf: Buffer, files: ExportFiles, prefix: string): Promise<void> {
  await checkZipBomb(buf, IMPORT_ZIP_LIMITS);
  const { default: yauzl } = await importPackage<{ default: typeof Yauzl }>('yauzl');
  const zip = await yauzl.fromBufferPromise(buf, { lazyEntries: true, autoClose: false });
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/')) continue;
      const name = cleanName(entry.fileName);
      if (!name) continue;
      const stream = await zip.openReadStreamPromise(entry);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      files.set(prefix + name, Buffer.concat(chunks));
    }
  } finally {
    zip.close();
  }
}

/** The files of a ZIP export; 400 VALIDATION_ERROR naming `file` when it is not one Folio accepts. */
export async function readZipExport(buf: Buffer): Promise<ExportFiles> {
  if (buf.length === 0) throw invalid('file', 'The file is empty');
  if (buf.length > MAX_IMPORT_BYTES)
    throw invalid('file', `An import is at most ${MAX_IMPORT_BYTES / MB} MB`);
  const files: ExportFiles = new Map();
  await unzip(buf, files, '');
  const names = [...files.keys()];
  if (names.length > 0 && names.every((n) => /\.zip$/i.test(n))) {
    const parts: ExportFiles = new Map();
    let total = 0;
    for (const n of names) {
      const inner = files.get(n)!;
      await unzip(inner, parts, '');
      total += [...parts.values()].reduce((s, b) => s + b.length, 0);
      if (total > (IMPORT_ZIP_LIMITS.maxTotalUncompressed ?? Infinity) * 2)
        throw invalid('file', 'The export expands beyond what an import accepts');
    }
    return parts;
  }
  return files;
}

/** The files of an export unpacked in a folder (symlinks are not followed). */
export async function readFolderExport(root: string): Promise<ExportFiles> {
  const files: ExportFiles = new Map();
  let total = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(abs);
      else if (entry.isFile()) {
        const name = cleanName(path.relative(root, abs));
        if (!name) continue;
        const size = (await lstat(abs)).size;
        total += size;
        if (
          files.size >= (IMPORT_ZIP_LIMITS.maxEntries ?? Infinity) ||
          total > (IMPORT_ZIP_LIMITS.maxTotalUncompressed ?? Infinity)
        )
          throw invalid('path', 'The export holds more than an import accepts');
        files.set(name, await readFile(abs));
      }
    }
  };
  await walk(root);
  return files;
}
