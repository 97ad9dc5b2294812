import type * as Yauzl from 'yauzl';
import type { Readable } from 'node:stream';
import type { Entry, ZipFile } from 'yauzl';
import { AppError } from '../errors.js';
import { importPackage } from '../lib/import-package.js';

/** A content type established from magic bytes. */
export interface SniffedType {
  mime: string;
  /** Extension without the dot, to store the file under. */
  ext: string;
}

const startsWith = (buf: Buffer, bytes: number[], at = 0): boolean =>
  buf.length >= at + bytes.length && bytes.every((b, i) => buf[at + i] === b);
const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

// Unanchored alternatives would let any text with `<svg` somewhere pass as SVG; only a
// prolog, comments, a doctype and whitespace may come before the root element.
const SVG_RE = /^\uFEFF?\s*(?:<\?xml[^]*?\?>\s*)?(?:(?:<!--[^]*?-->|<!DOCTYPE[^>]*>)\s*)*<svg[\s>/]/i;

/**
 * Identifies an upload from its bytes, never from the client's name or Content-Type:
 * PNG, JPEG, GIF, WebP, PDF, ZIP, SVG (UTF-8 text whose root element is `<svg`) and plain
 * text (valid UTF-8 without NUL or other control characters besides tab, newlines and form
 * feed). Returns `null` for anything else, including an empty buffer. SVG may carry script,
 * so whoever serves it must do so with a restrictive CSP or as an attachment.
 */
export function sniffType(buf: Buffer): SniffedType | null {
  if (buf.length === 0) return null;
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { mime: 'image/png', ext: 'png' };
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' };
  if (startsWith(buf, ascii('GIF87a')) || startsWith(buf, ascii('GIF89a')))
    return { mime: 'image/gif', ext: 'gif' };
  if (startsWith(buf, ascii('RIFF')) && startsWith(buf, ascii('WEBP'), 8))
    return { mime: 'image/webp', ext: 'webp' };
  if (startsWith(buf, ascii('%PDF-'))) return { mime: 'application/pdf', ext: 'pdf' };
  // Local file header, or the end-of-central-directory record of an empty archive.
  if (startsWith(buf, [0x50, 0x4b, 0x03, 0x04]) || startsWith(buf, [0x50, 0x4b, 0x05, 0x06])) {
    return { mime: 'application/zip', ext: 'zip' };
  }
  const text = decodeText(buf);
  if (text === null) return null;
  if (SVG_RE.test(text)) return { mime: 'image/svg+xml', ext: 'svg' };
  return { mime: 'text/plain', ext: 'txt' };
}

// eslint-disable-next-line no-control-regex
const BINARY_CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f]/;

function decodeText(buf: Buffer): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return BINARY_CONTROL.test(text) ? null : text;
  } catch {
    return null;
  }
}

/** Bounds `checkZipBomb` enforces; sizes in bytes. */
export interface ZipLimits {
  maxEntries: number;
  maxTotalUncompressed: number;
  maxEntryUncompressed: number;
  /** Uncompressed / compressed size, per entry and over the whole archive. */
  maxRatio: number;
  /**
   * Sizes below which the ratio is not checked: small, highly repetitive files (an SVG,
   * a CSV of zeros) legitimately compress beyond 100:1 and cannot hurt anyone.
   */
  ratioFloor: number;
}

const MB = 1024 * 1024;

/** 1000 entries, 100 MB in total, 50 MB per entry, 100:1 above 1 MB. */
export const DEFAULT_ZIP_LIMITS: Readonly<ZipLimits> = Object.freeze({
  maxEntries: 1000,
  maxTotalUncompressed: 100 * MB,
  maxEntryUncompressed: 50 * MB,
  maxRatio: 100,
  ratioFloor: 1 * MB,
});

/** What an accepted archive holds, measured by inflating it. */
export interface ZipSummary {
  entries: number;
  totalUncompressed: number;
}

const refuse = (message: string, limit?: string): AppError =>
  new AppError('VALIDATION_ERROR', message, {
    details: limit ? { field: 'file', limit } : { field: 'file' },
  });

/**
 * Refuses archive bombs before a ZIP upload is stored. Checks the central directory's
 * declared entry count and sizes first (cheap), then inflates every entry, counting the real
 * bytes and aborting the moment a limit is crossed, because declared sizes are
 * attacker-controlled; an entry whose real size differs from its declared size is refused
 * too. Encrypted entries are refused since they cannot be measured. Throws
 * VALIDATION_ERROR with `details: { field: 'file', limit }` naming the limit crossed; a
 * corrupt archive throws with `field: 'file'` only. Nested archives are not opened.
 */
export async function checkZipBomb(buf: Buffer, limits: Partial<ZipLimits> = {}): Promise<ZipSummary> {
  const lim: ZipLimits = { ...DEFAULT_ZIP_LIMITS, ...limits };
  let zip: ZipFile;
  try {
    // validateEntrySizes off: our own counter does that job and reports which limit tripped.
    // yauzl is loaded on the first ZIP upload or import, not at start.
    const { default: yauzl } = await importPackage<{ default: typeof Yauzl }>('yauzl');
    zip = await yauzl.fromBufferPromise(buf, {
      lazyEntries: true,
      validateEntrySizes: false,
      autoClose: false,
    });
  } catch (err) {
    throw refuse(`Not a readable ZIP archive: ${(err as Error).message}`);
  }
  try {
    if (zip.entryCount > lim.maxEntries) {
      throw refuse(
        `ZIP archive has ${zip.entryCount} entries; at most ${lim.maxEntries} allowed`,
        'maxEntries',
      );
    }
    let entries = 0;
    let declaredTotal = 0;
    let actualTotal = 0;
    let compressedTotal = 0;
    for await (const entry of zip.eachEntry()) {
      entries += 1;
      if (entries > lim.maxEntries)
        throw refuse(`ZIP archive has more than ${lim.maxEntries} entries`, 'maxEntries');
      declaredTotal += entry.uncompressedSize;
      compressedTotal += entry.compressedSize;
      checkSizes(lim, entry.uncompressedSize, entry.compressedSize, declaredTotal, compressedTotal);
      if (entry.fileName.endsWith('/') && entry.uncompressedSize === 0) continue;
      if (entry.isEncrypted()) throw refuse('ZIP archive contains encrypted entries', 'encrypted');
      if (!entry.canDecodeFileData()) throw refuse('ZIP archive uses an unsupported compression method');
      const actual = await inflateCounting(zip, entry, (entryBytes) => {
        checkSizes(lim, entryBytes, entry.compressedSize, actualTotal + entryBytes, compressedTotal);
      });
      actualTotal += actual;
      if (actual !== entry.uncompressedSize) {
        throw refuse(`ZIP entry ${entry.fileName} is larger or smaller than it declares`, 'declaredSize');
      }
    }
    return { entries, totalUncompressed: actualTotal };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw refuse(`Corrupt ZIP archive: ${(err as Error).message}`);
  } finally {
    zip.close();
  }
}

function checkSizes(
  lim: ZipLimits,
  entrySize: number,
  entryCompressed: number,
  total: number,
  totalCompressed: number,
) {
  if (entrySize > lim.maxEntryUncompressed) {
    throw refuse(`A ZIP entry expands beyond ${lim.maxEntryUncompressed} bytes`, 'maxEntryUncompressed');
  }
  if (total > lim.maxTotalUncompressed) {
    throw refuse(
      `ZIP archive expands beyond ${lim.maxTotalUncompressed} bytes in total`,
      'maxTotalUncompressed',
    );
  }
  const overRatio = (size: number, compressed: number) =>
    size > lim.ratioFloor && size / Math.max(compressed, 1) > lim.maxRatio;
  if (overRatio(entrySize, entryCompressed) || overRatio(total, totalCompressed)) {
    throw refuse(`ZIP archive compresses more than ${lim.maxRatio}:1`, 'maxRatio');
  }
}

/** Inflates one entry into nothing, reporting the running byte count after every chunk. */
async function inflateCounting(
  zip: ZipFile,
  entry: Entry,
  onProgress: (bytes: number) => void,
): Promise<number> {
  const stream: Readable = await zip.openReadStreamPromise(entry);
  let bytes = 0;
  try {
    for await (const chunk of stream) {
      bytes += (chunk as Buffer).length;
      onProgress(bytes);
    }
  } finally {
    stream.destroy();
  }
  return bytes;
}
