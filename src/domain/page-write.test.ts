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
const refusal = (write: () => unknown): AppError => {
  try {
    write();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the write was not refused');
};

describe('planPageWrite', () => {
  it('patches only the named key, keeping CRLF, a byte-order mark and comments', () => {
    const text = `\uFEFF---\r\n# kept\r\nid: ${ID}\r\ntitle: Guide # nav\r\n---\r\n\r\nBody\r\n`;
    const result = update(text, { frontmatter: { title: 'Renamed' }, body: 'New\r\n' });
    expect(result).toMatchObject({ kind: 'updated', body: 'New\r\n' });
    expect(result.kind !== 'unchanged' && result.text).toBe(
      `\uFEFF---\r\n# kept\r\nid: ${ID}\r\ntitle: Renamed # nav\r\n---\r\n\r\nNew\r\n`,
    );
  });

  it('answers unchanged when the body and frontmatter are what the file has', () => {
    const text = `---\nid: ${ID}\ntitle: Guide\n---\n\nBody\n`;
    expect(update(text, { body: 'Body\n', frontmatter: { title: 'Guide' } })).toEqual({ kind: 'unchanged' });
  });

  it('writes a broken file out canonically from its last good frontmatter', () => {
    const text = `---\ntitle: [unclosed\n---\n\nBody\n`;
    const result = planPageWrite(
      fileOf(text),
      { kind: 'update', body: undefined, lastKnownHash: contentHash('Body\n'), frontmatter: undefined },
      { ...context, lastGood: { id: ID, title: 'Guide' } },
    );
    expect(result.kind !== 'unchanged' && result.text).toBe(`---\nid: ${ID}\ntitle: Guide\n---\n\nBody\n`);
  });

  it('creates a missing page on update with a title from its path and status draft', () => {
    const result = planPageWrite(
      null,
      { kind: 'update', body: 'Hi\n', lastKnownHash: undefined, frontmatter: undefined },
      { ...context, path: 'guides/getting-started.md' },
    );
    expect(result).toMatchObject({
      kind: 'created',
      text: `---\nid: ${context.newId}\ntitle: Getting started\nstatus: draft\n---\n\nHi\n`,
    });
  });

  it('refuses what the rules refuse, with the error each names', () => {
    const text = `---\nid: ${ID}\ntitle: Guide\n---\n\nBody\n`;
    const stale = refusal(() =>
      planPageWrite(
        fileOf(text),
        { kind: 'update', body: 'x', lastKnownHash: 'sha256:old', frontmatter: undefined },
        { ...context, lastChange: { modified_by: 'u1', modified_at: '2026-01-01T00:00:00.000Z' } },
      ),
    );
    expect(stale.code).toBe('CONFLICT');
    expect(stale.details).toMatchObject({ current_hash: contentHash('Body\n'), modified_by: 'u1' });
    const noHash = refusal(() =>
      planPageWrite(
        fileOf(text),
        { kind: 'update', body: 'x', lastKnownHash: undefined, frontmatter: undefined },
        context,
      ),
    );
    expect(noHash.details).toMatchObject({ field: 'lastKnownHash' });
    const exists = refusal(() =>
      planPageWrite(fileOf(text), { kind: 'create', fields: {}, body: '' }, context),
    );
    expect(exists.code).toBe('CONFLICT');
    expect(exists.details).toMatchObject({ path: 'guide.md', page_id: ID });
    const reserved = refusal(() =>
      planPageWrite(
        null,
        { kind: 'create', fields: { title: 'T' }, body: '' },
        { ...context, path: 'tree.md' },
      ),
    );
    expect(reserved.details).toMatchObject({ field: 'path' });
    const newId = refusal(() => update(text, { frontmatter: { id: '01J00000000000000000000BBB' } }));
    expect(newId.details).toMatchObject({ field: 'frontmatter.id' });
    const missing = refusal(() =>
      planPageWrite(
        null,
        { kind: 'update', body: 'x', lastKnownHash: 'sha256:old', frontmatter: undefined },
        context,
      ),
    );
    expect(missing.code).toBe('NOT_FOUND');
  });
});
