import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  TEMP_PREFIX,
  fsyncDir,
  moveFileDurable,
  pruneEmptyDirs,
  removeFileDurable,
  stageFile,
  writeFileAtomic,
} from './atomic-write.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'folio-atomic-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const tempFiles = async (d: string): Promise<string[]> =>
  (await readdir(d)).filter((name) => name.startsWith(TEMP_PREFIX));

describe('stageFile', () => {
  it('leaves the target as it was until commit, and discard leaves nothing behind', async () => {
    const file = path.join(dir, 'notes', 'page.md');
    const staged = await stageFile(file, 'first');
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await tempFiles(path.join(dir, 'notes'))).toHaveLength(1);
    await staged.commit();
    expect(await readFile(file, 'utf8')).toBe('first');
    const dropped = await stageFile(file, 'second');
    await dropped.discard();
    expect(await readFile(file, 'utf8')).toBe('first');
    expect(await tempFiles(path.join(dir, 'notes'))).toEqual([]);
  });
});

describe('writeFileAtomic', () => {
  it('creates missing parent folders and writes strings and buffers', async () => {
    const file = path.join(dir, 'a', 'b', 'c.md');
    await writeFileAtomic(file, 'héllo');
    expect(await readFile(file, 'utf8')).toBe('héllo');
    await writeFileAtomic(file, Buffer.from([0, 1, 2, 255]));
    expect([...(await readFile(file))]).toEqual([0, 1, 2, 255]);
    expect(await tempFiles(path.join(dir, 'a', 'b'))).toEqual([]);
  });

  it('writes a text of megabytes byte for byte, a pair cut at a slice edge included', async () => {
    const file = path.join(dir, 'long.md');
    const text = `${'x'.repeat(512 * 1024 - 1)}\u{1F600}${'caf\u00e9 \u2014 prose\n'.repeat(200_000)}`;
    await writeFileAtomic(file, text);
    expect((await readFile(file)).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  it('replaces an existing file in one step', async () => {
    const file = path.join(dir, 'page.md');
    await writeFile(file, 'old content that is longer than the new');
    await writeFileAtomic(file, 'new');
    expect(await readFile(file, 'utf8')).toBe('new');
  });

  it('leaves one complete version after concurrent writers and no temp files', async () => {
    const file = path.join(dir, 'race.md');
    const versions = Array.from({ length: 20 }, (_, i) => `version ${i} `.repeat(1000));
    await Promise.all(versions.map((v) => writeFileAtomic(file, v)));
    expect(versions).toContain(await readFile(file, 'utf8'));
    expect(await tempFiles(dir)).toEqual([]);
  });

  it('removes its temp file and keeps the target when the rename fails', async () => {
    const target = path.join(dir, 'occupied');
    await mkdir(target);
    await writeFile(path.join(target, 'inside'), 'x');
    await expect(writeFileAtomic(target, 'data')).rejects.toMatchObject({ code: expect.any(String) });
    expect(await tempFiles(dir)).toEqual([]);
    expect((await stat(target)).isDirectory()).toBe(true);
  });

  it('fails when a parent path is a file', async () => {
    await writeFile(path.join(dir, 'file'), 'x');
    await expect(writeFileAtomic(path.join(dir, 'file', 'child.md'), 'data')).rejects.toThrow();
  });
});

describe('removeFileDurable', () => {
  it('deletes a file and reports whether there was one', async () => {
    const file = path.join(dir, 'gone.md');
    await writeFile(file, 'x');
    expect(await removeFileDurable(file)).toBe(true);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await removeFileDurable(file)).toBe(false);
  });

  it('propagates errors other than absence', async () => {
    await mkdir(path.join(dir, 'folder'));
    await expect(removeFileDurable(path.join(dir, 'folder'))).rejects.toThrow();
  });
});

describe('moveFileDurable', () => {
  it('moves into a new folder and replaces like rename(2)', async () => {
    const from = path.join(dir, 'a.md');
    const to = path.join(dir, 'new', 'deeper', 'b.md');
    await writeFile(from, 'A');
    await moveFileDurable(from, to);
    expect(await readFile(to, 'utf8')).toBe('A');
    await expect(stat(from)).rejects.toMatchObject({ code: 'ENOENT' });

    await writeFile(from, 'A2');
    await moveFileDurable(from, to);
    expect(await readFile(to, 'utf8')).toBe('A2');
  });

  it('fails when the source is missing', async () => {
    await expect(moveFileDurable(path.join(dir, 'nope'), path.join(dir, 'x'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});

describe('pruneEmptyDirs', () => {
  it('removes empty folders upwards, stopping at a non-empty one', async () => {
    await mkdir(path.join(dir, 'a', 'b', 'c'), { recursive: true });
    await writeFile(path.join(dir, 'a', 'keep.md'), 'x');
    await pruneEmptyDirs(path.join(dir, 'a', 'b', 'c'), dir);
    expect(await readdir(path.join(dir, 'a'))).toEqual(['keep.md']);
  });

  it('never removes the stop folder or anything outside it', async () => {
    const root = path.join(dir, 'root');
    await mkdir(path.join(root, 'x'), { recursive: true });
    await pruneEmptyDirs(path.join(root, 'x'), root);
    expect(await readdir(dir)).toEqual(['root']);
    await pruneEmptyDirs(dir, root);
    expect(await readdir(dir)).toEqual(['root']);
  });
});

describe('fsyncDir', () => {
  it('syncs an existing folder and fails for a missing one', async () => {
    await expect(fsyncDir(dir)).resolves.toBeUndefined();
    await expect(fsyncDir(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
