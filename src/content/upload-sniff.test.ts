import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { checkZipBomb, sniffType } from './upload-sniff.js';

const MB = 1024 * 1024;

describe('sniffType', () => {
  const withTail = (head: number[] | string) => Buffer.concat([Buffer.from(head as never), randomBytes(32)]);

  it.each([
    ['PNG', withTail([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'image/png', 'png'],
    ['JPEG', withTail([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg', 'jpg'],
    ['GIF87a', withTail('GIF87a'), 'image/gif', 'gif'],
    ['GIF89a', withTail('GIF89a'), 'image/gif', 'gif'],
    [
      'WebP',
      Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]),
      'image/webp',
      'webp',
    ],
    ['PDF', withTail('%PDF-1.7\n'), 'application/pdf', 'pdf'],
    ['ZIP', withTail([0x50, 0x4b, 0x03, 0x04]), 'application/zip', 'zip'],
    ['empty ZIP', Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]), 'application/zip', 'zip'],
  ])('recognises %s', (_label, buf, mime, ext) => {
    expect(sniffType(buf)).toEqual({ mime, ext });
  });

  it.each([
    ['bare', '<svg xmlns="http://www.w3.org/2000/svg"></svg>'],
    ['prolog', '<?xml version="1.0" encoding="UTF-8"?>\n<svg width="1"/>'],
    ['BOM and whitespace', '\uFEFF  \n\t<svg>'],
    [
      'comment and doctype',
      '<?xml version="1.0"?><!-- Generator: x --><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<SVG>',
    ],
  ])('recognises SVG (%s)', (_label, text) => {
    expect(sniffType(Buffer.from(text))).toEqual({ mime: 'image/svg+xml', ext: 'svg' });
  });

  it('does not take text that only mentions <svg later for SVG', () => {
    expect(sniffType(Buffer.from('<html><body><svg></svg></body></html>'))).toEqual({
      mime: 'text/plain',
      ext: 'txt',
    });
    expect(sniffType(Buffer.from('<svgfoo>'))).toEqual({ mime: 'text/plain', ext: 'txt' });
  });

  it('recognises UTF-8 text with tabs and line endings', () => {
    expect(sniffType(Buffer.from('# Title\r\n\tIndented — ünïcödé 🚀\f\n'))).toEqual({
      mime: 'text/plain',
      ext: 'txt',
    });
  });

  it.each([
    ['empty', Buffer.alloc(0)],
    ['NUL byte', Buffer.from('text\0more')],
    ['other control character', Buffer.from('text\u0001more')],
    ['invalid UTF-8', Buffer.from([0x68, 0x69, 0xc3, 0x28])],
    ['truncated PNG signature', Buffer.from([0x89, 0x50, 0x4e, 0x47])],
    ['random binary', Buffer.from([0x00, 0x9f, 0x92, 0x96, 0xff, 0xfe])],
    ['RIFF that is not WebP', Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')])],
  ])('returns null for %s', (_label, buf) => {
    expect(sniffType(buf)).toBeNull();
  });
});

type ZipInput = { name: string; data?: Buffer | (() => Readable); dir?: boolean };

async function buildZip(entries: ZipInput[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    if (e.dir) zip.addEmptyDirectory(e.name);
    else if (Buffer.isBuffer(e.data)) zip.addBuffer(e.data, e.name);
    else if (e.data) zip.addReadStream(e.data(), e.name);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Streams `total` zero bytes without holding them in memory. */
function zeros(total: number): () => Readable {
  return () =>
    Readable.from(
      (function* () {
        const chunk = Buffer.alloc(MB);
        for (let left = total; left > 0; left -= chunk.length)
          yield left >= chunk.length ? chunk : chunk.subarray(0, left);
      })(),
    );
}

/** Rewrites the central directory's declared sizes (or flags) of every entry, as a forger would. */
function forgeCentralDirectory(zip: Buffer, patch: { uncompressed?: number; flagBits?: number }): Buffer {
  const out = Buffer.from(zip);
  const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let i = out.indexOf(signature); i >= 0; i = out.indexOf(signature, i + 4)) {
    if (patch.uncompressed !== undefined) out.writeUInt32LE(patch.uncompressed, i + 24);
    if (patch.flagBits !== undefined) out.writeUInt16LE(out.readUInt16LE(i + 8) | patch.flagBits, i + 8);
  }
  return out;
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('VALIDATION_ERROR');
    expect((err as AppError).details).toMatchObject({ field: 'file' });
    return err as AppError;
  }
  throw new Error('expected checkZipBomb to refuse the archive');
}

describe('checkZipBomb', () => {
  it('accepts an ordinary archive and reports what it holds', async () => {
    const zip = await buildZip([
      { name: 'docs/', dir: true },
      { name: 'docs/a.md', data: Buffer.from('# A\n'.repeat(100)) },
      { name: 'img.bin', data: randomBytes(64 * 1024) },
    ]);
    expect(await checkZipBomb(zip)).toEqual({ entries: 3, totalUncompressed: 400 + 64 * 1024 });
  });

  it('accepts small highly compressible files below the ratio floor', async () => {
    const zip = await buildZip([{ name: 'zeros.txt', data: Buffer.alloc(512 * 1024) }]);
    expect(await checkZipBomb(zip)).toEqual({ entries: 1, totalUncompressed: 512 * 1024 });
  });

  it('refuses too many entries', async () => {
    const zip = await buildZip(
      Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from('x') })),
    );
    const err = await refusal(checkZipBomb(zip, { maxEntries: 5 }));
    expect(err.details).toMatchObject({ limit: 'maxEntries' });
    expect(err.message).toMatch(/6 entries/);
    await expect(checkZipBomb(zip, { maxEntries: 6 })).resolves.toMatchObject({ entries: 6 });
  });

  it('refuses an entry or a total that is too large', async () => {
    const zip = await buildZip([
      { name: 'a.bin', data: randomBytes(3000) },
      { name: 'b.bin', data: randomBytes(3000) },
    ]);
    expect((await refusal(checkZipBomb(zip, { maxEntryUncompressed: 2999 }))).details).toMatchObject({
      limit: 'maxEntryUncompressed',
    });
    expect((await refusal(checkZipBomb(zip, { maxTotalUncompressed: 5999 }))).details).toMatchObject({
      limit: 'maxTotalUncompressed',
    });
    await expect(
      checkZipBomb(zip, { maxTotalUncompressed: 6000, maxEntryUncompressed: 3000 }),
    ).resolves.toEqual({
      entries: 2,
      totalUncompressed: 6000,
    });
  });

  it('refuses an extreme compression ratio', async () => {
    const zip = await buildZip([{ name: 'zeros.bin', data: Buffer.alloc(4 * MB) }]);
    const err = await refusal(checkZipBomb(zip));
    expect(err.details).toMatchObject({ limit: 'maxRatio' });
  });

  it('refuses a real 200 MB bomb from its declared size without inflating it', async () => {
    const bomb = await buildZip([{ name: 'bomb.bin', data: zeros(200 * MB) }]);
    expect(bomb.length).toBeLessThan(1 * MB);
    const err = await refusal(checkZipBomb(bomb));
    expect(err.details).toMatchObject({ limit: 'maxEntryUncompressed' });
  });

  it('counts inflated bytes when the declared sizes lie', async () => {
    const honest = await buildZip([{ name: 'big.bin', data: zeros(60 * MB) }]);
    const forged = forgeCentralDirectory(honest, { uncompressed: 1000 });
    // Without the ratio limit the real size is what trips, not the (forged) declaration.
    const err = await refusal(checkZipBomb(forged, { maxRatio: Number.MAX_SAFE_INTEGER }));
    expect(err.details).toMatchObject({ limit: 'maxEntryUncompressed' });
    expect((await refusal(checkZipBomb(forged))).details).toMatchObject({ limit: 'maxRatio' });
  });

  it('refuses any mismatch between declared and real size', async () => {
    const zip = await buildZip([{ name: 'a.txt', data: randomBytes(5000) }]);
    for (const declared of [4999, 5001, 0]) {
      const err = await refusal(checkZipBomb(forgeCentralDirectory(zip, { uncompressed: declared })));
      expect(err.details).toMatchObject({ limit: 'declaredSize' });
    }
  });

  it('refuses encrypted entries, which cannot be measured', async () => {
    const zip = await buildZip([{ name: 'secret.txt', data: Buffer.from('hello') }]);
    const err = await refusal(checkZipBomb(forgeCentralDirectory(zip, { flagBits: 0x1 })));
    expect(err.details).toMatchObject({ limit: 'encrypted' });
  });

  it('refuses data that is not a ZIP archive', async () => {
    const err = await refusal(checkZipBomb(Buffer.from('PK\x03\x04 definitely not a zip')));
    expect(err.details).toEqual({ field: 'file' });
    expect(err.message).toMatch(/ZIP/);
  });
});
