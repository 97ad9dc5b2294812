import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MoveJournal, parseMoveRecord } from './move-journal.js';

const record = {
  page_id: '01JB0000000000000000000000',
  from: 'guides/setup.md',
  to: 'handbook/setup.md',
  actor: 'user-1',
  started_at: '2025-01-01T00:00:00.000Z',
};

describe('MoveJournal', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
  });
  const tempRoot = () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-journal-'));
    roots.push(root);
    return root;
  };

  it('writes, lists in start order, reads and finishes records', async () => {
    const journal = new MoveJournal(tempRoot());
    expect(await journal.hasEntries()).toBe(false);
    expect(await journal.list()).toEqual([]);
    const first = await journal.begin(record);
    const second = await journal.begin({ ...record, from: 'handbook/setup.md', to: 'setup.md', actor: null });
    expect(await journal.list()).toEqual([first, second]);
    expect(await journal.read(first)).toEqual(record);
    expect((await journal.read(second))?.actor).toBeNull();
    await journal.finish(first);
    expect(await journal.read(first)).toBeUndefined();
    expect(await journal.list()).toEqual([second]);
  });

  it('answers null for an unusable record and clears temp files a crash left', async () => {
    const dir = path.join(tempRoot(), 'moves');
    fs.mkdirSync(dir, { recursive: true });
    const id = '01JB0000000000000000000001';
    fs.writeFileSync(path.join(dir, `${id}.json`), '{"page_id": "x"');
    fs.writeFileSync(path.join(dir, '.folio-tmp-1-abc'), '{');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a record name');
    const journal = new MoveJournal(dir);
    expect(await journal.list()).toEqual([id]);
    expect(await journal.read(id)).toBeNull();
    await journal.removeTempFiles();
    expect(fs.readdirSync(dir).sort()).toEqual([`${id}.json`, 'notes.txt']);
  });

  it('accepts only canonical page paths, so a hand-edited record cannot reach other files', () => {
    expect(parseMoveRecord(JSON.stringify(record))).toEqual(record);
    for (const bad of [
      { ...record, from: '../outside.md' },
      { ...record, to: '.folio/workspace.json' },
      { ...record, to: 'guides/setup' },
      { ...record, to: record.from },
      { ...record, actor: 7 },
      { ...record, page_id: '' },
      { ...record, started_at: undefined },
    ]) {
      expect(parseMoveRecord(JSON.stringify(bad))).toBeNull();
    }
    expect(parseMoveRecord('[]')).toBeNull();
    expect(parseMoveRecord('null')).toBeNull();
  });
});
