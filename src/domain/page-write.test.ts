import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { contentHash, parsePageFile } from './frontmatter.js';
import { type PageWriteContext, planPageWrite } from './page-write.js';

const ID = '01J00000000000000000000AAA';
const context: PageWriteContext = {
  path: 'guide.md',
  newId: '01J00000000000000000000NEW',
  pageId: ID,
  lastGood: {},
};
const fileOf = (text: string) => ({ text, ...parsePageFile(text) });
const update = (current: string, fields: { body?: string; frontmatter?: Record<string, unknown> }) =>
  planPageWrite(
    fileOf(current),
    {
      kind: 'update',
      body: fields.body,
      lastKnownHash: contentHash(parsePageFile(current).body),
      frontmatter: fields.frontmatter,
    },
    context,
  );
const refusal = async (write: () => Promise<unknown>): Promise<AppError> => {
  try {
    await write();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the write was not refused');
};

describe('planPageWrite', () => {
  it('patches only the named key, keeping CRLF, a byte-order mark and comments', async () => {
    const text = `\uFEFF---\r\n# kept\r\nid: ${ID}\r\ntitle: Guide # nav\r\n---\r\n\r\nBody\r\n`;
    const result = await update(text, { frontmatter: { title: 'Renamed' }, body: 'New\r\n' });
    expect(result).toMatchObject({ kind: 'updated', body: 'New\r\n' });
    expect(result.kind !== 'unchanged' && result.text).toBe(
      `\uFEFF---\r\n# kept\r\nid: ${ID}\r\ntitle: Renamed # nav\r\n---\r\n\r\nNew\r\n`,
    );
  });

  it('answers unchanged when the body and frontmatter are what the file has', async () => {
    const text = `---\nid: ${ID}\ntitle: Guide\n---\n\nBody\n`;
    expect(await update(text, { body: 'Body\n', frontmatter: { title: 'Guide' } })).toEqual({
      kind: 'unchanged',
    });
  });

  it('writes a broken file out canonically from its last good frontmatter', async () => {
    const text = `---\ntitle: [unclosed\n---\n\nBody\n`;
    const result = await planPageWrite(
      fileOf(text),
      { kind: 'update', body: undefined, lastKnownHash: contentHash('Body\n'), frontmatter: undefined },
      { ...context, lastGood: { id: ID, title: 'Guide' } },
    );
    expect(result.kind !== 'unchanged' && result.text).toBe(`---\nid: ${ID}\ntitle: Guide\n---\n\nBody\n`);
  });

  it('creates a missing page on update with a title from its path and status draft', async () => {
    const result = await planPageWrite(
      null,
      { kind: 'update', body: 'Hi\n', lastKnownHash: undefined, frontmatter: undefined },
      { ...context, path: 'guides/getting-started.md' },
    );
    expect(result).toMatchObject({
      kind: 'created',
      text: `---\nid: ${context.newId}\ntitle: Getting started\nstatus: draft\n---\n\nHi\n`,
    });
  });

  it('refuses what the rules refuse, with the error each names', async () => {
    const text = `---\nid: ${ID}\ntitle: Guide\n---\n\nBody\n`;
    const stale = await refusal(() =>
      planPageWrite(
        fileOf(text),
        { kind: 'update', body: 'x', lastKnownHash: 'sha256:old', frontmatter: undefined },
        { ...context, lastChange: { modified_by: 'u1', modified_at: '2026-01-01T00:00:00.000Z' } },
      ),
    );
    expect(stale.code).toBe('CONFLICT');
    expect(stale.details).toMatchObject({ current_hash: contentHash('Body\n'), modified_by: 'u1' });
    const noHash = await refusal(() =>
      planPageWrite(
        fileOf(text),
        { kind: 'update', body: 'x', lastKnownHash: undefined, frontmatter: undefined },
        context,
      ),
    );
    expect(noHash.details).toMatchObject({ field: 'lastKnownHash' });
    const exists = await refusal(() =>
      planPageWrite(fileOf(text), { kind: 'create', fields: {}, body: '' }, context),
    );
    expect(exists.code).toBe('CONFLICT');
    expect(exists.details).toMatchObject({ path: 'guide.md', page_id: ID });
    const reserved = await refusal(() =>
      planPageWrite(
        null,
        { kind: 'create', fields: { title: 'T' }, body: '' },
        { ...context, path: 'tree.md' },
      ),
    );
    expect(reserved.details).toMatchObject({ field: 'path' });
    const newId = await refusal(() => update(text, { frontmatter: { id: '01J00000000000000000000BBB' } }));
    expect(newId.details).toMatchObject({ field: 'frontmatter.id' });
    const missing = await refusal(() =>
      planPageWrite(
        null,
        { kind: 'update', body: 'x', lastKnownHash: 'sha256:old', frontmatter: undefined },
        context,
      ),
    );
    expect(missing.code).toBe('NOT_FOUND');
  });

  it('never writes frontmatter a read of the file would refuse', async () => {
    // 900 keys: under the key limit, and JSON small enough to reach the YAML written, 23 KB of it.
    const fields = Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`key${i}`, 'v'.repeat(16)]));
    const create = await refusal(() =>
      planPageWrite(null, { kind: 'create', fields: { title: 'T', ...fields }, body: '' }, context),
    );
    expect(create.code).toBe('VALIDATION_ERROR');
    expect(create.details).toMatchObject({ field: 'frontmatter', max_keys: 1_000, max_bytes: 16 * 1024 });
    const text = `---\nid: ${ID}\ntitle: Guide\n---\n\nBody\n`;
    const update_ = await refusal(() => update(text, { frontmatter: fields }));
    expect(update_.code).toBe('VALIDATION_ERROR');

    // An author's comments that a patch would push over the limit: written out canonically.
    const comments = Array.from({ length: 180 }, (_, i) => `# note ${i}: ${'x'.repeat(70)}`).join('\n');
    const commented = `---\n${comments}\nid: ${ID}\ntitle: Guide\n---\n\nBody\n`;
    expect(parsePageFile(commented).error).toBeUndefined();
    const result = await update(commented, { frontmatter: { summary: 'y'.repeat(2_000) } });
    const written = result.kind !== 'unchanged' ? parsePageFile(result.text) : null;
    expect(written?.error).toBeUndefined();
    expect(written?.frontmatter).toMatchObject({ id: ID, title: 'Guide', summary: 'y'.repeat(2_000) });
  });
});
