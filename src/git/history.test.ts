import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alice, bob, commitFile, makeTempDir, removeTempDir } from '../../test/helpers/git-fixtures.js';
import { runGit } from './git.js';
import { deletedFiles, fileAtCommit, folioMoveSource, pageHistory, resolveCommit } from './history.js';
import { diffTexts } from './text-diff.js';

let dir: string;
beforeEach(async () => {
  dir = join(await makeTempDir(), 'repo');
  await mkdir(dir);
  await runGit(dir, ['init', '-q', '-b', 'main']);
});
afterEach(async () => {
  await removeTempDir(join(dir, '..'));
});

const head = async () => (await resolveCommit(dir, 'HEAD')) ?? '';

describe('folioMoveSource', () => {
  it('reads the move line of a Folio commit, alone or in a batch', () => {
    expect(folioMoveSource('docs: move a.md to g/b.md', 'g/b.md')).toBe('a.md');
    const batch = 'docs: update X (+1 more)\n\ndocs: update X\ndocs: move old/p q.md to new/p q.md';
    expect(folioMoveSource(batch, 'new/p q.md')).toBe('old/p q.md');
    expect(folioMoveSource('docs: move a.md to c.md', 'g/b.md')).toBeNull();
    expect(folioMoveSource('docs: create B', 'g/b.md')).toBeNull();
  });
});

describe('pageHistory', () => {
  it('follows a Folio move that git does not see as a rename, and pages across it', async () => {
    const c1 = await commitFile(dir, 'a.md', 'tiny\n', alice, 'docs: create A');
    const c2 = await commitFile(dir, 'a.md', 'tiny!\n', bob, 'docs: update A');
    // Other text at the new path: git's rename detection cannot pair the two files.
    await runGit(dir, ['rm', '-q', 'a.md']);
    const c3 = await commitFile(
      dir,
      'g/b.md',
      'completely different words here\n',
      bob,
      'docs: move a.md to g/b.md',
    );
    const c4 = await commitFile(
      dir,
      'g/b.md',
      'completely different words here\nmore\n',
      alice,
      'docs: update B',
    );
    const all = await pageHistory(dir, { rev: await head(), path: 'g/b.md', skip: 0 }, 10);
    expect(all.commits.map((c) => [c.commit, c.change, c.path, c.authorName])).toEqual([
      [c4, 'updated', 'g/b.md', 'Alice Writer'],
      [c3, 'moved', 'g/b.md', 'Bob Editor'],
      [c2, 'updated', 'a.md', 'Bob Editor'],
      [c1, 'created', 'a.md', 'Alice Writer'],
    ]);
    expect(all.next).toBeNull();
    // One at a time, every position leads to the next commit and ends at the first.
    const seen: string[] = [];
    let position: Parameters<typeof pageHistory>[1] | null = { rev: await head(), path: 'g/b.md', skip: 0 };
    while (position) {
      const page = await pageHistory(dir, position, 1);
      seen.push(...page.commits.map((c) => c.commit));
      position = page.next;
    }
    expect(seen).toEqual([c4, c3, c2, c1]);
    expect(await fileAtCommit(dir, c2, 'a.md')).toBe('tiny!\n');
    expect(await fileAtCommit(dir, c2, 'g/b.md')).toBeNull();
  });

  it('follows a rename git detects, and a deletion', async () => {
    const text = 'a page long enough for git to recognise it after a rename\n'.repeat(5);
    const c1 = await commitFile(dir, 'one.md', text, alice, 'Add one');
    await mkdir(join(dir, 'sub'));
    await runGit(dir, ['mv', 'one.md', 'sub/two.md']);
    await runGit(dir, ['commit', '-q', '-m', 'Rename by hand'], {
      env: {
        GIT_AUTHOR_NAME: 'A',
        GIT_AUTHOR_EMAIL: 'a@x',
        GIT_COMMITTER_NAME: 'A',
        GIT_COMMITTER_EMAIL: 'a@x',
      },
    });
    const c2 = await head();
    const c3 = await commitFile(dir, 'sub/two.md', null, bob, 'Remove two');
    const { commits } = await pageHistory(dir, { rev: c3, path: 'sub/two.md', skip: 0 }, 10);
    expect(commits.map((c) => [c.commit, c.change, c.path])).toEqual([
      [c3, 'deleted', 'sub/two.md'],
      [c2, 'moved', 'sub/two.md'],
      [c1, 'created', 'one.md'],
    ]);
  });
});

describe('deletedFiles', () => {
  it('lists deleted Markdown files but not moves', async () => {
    await commitFile(dir, 'a.md', 'tiny\n', alice, 'docs: create A');
    await commitFile(dir, 'c.md', 'other\n', alice, 'docs: create C');
    await runGit(dir, ['rm', '-q', 'a.md']);
    await commitFile(dir, 'b.md', 'unrelated text\n', bob, 'docs: move a.md to b.md');
    const removal = await commitFile(dir, 'c.md', null, bob, 'docs: delete c.md');
    await commitFile(dir, 'notes.txt', 'x', bob, 'Add notes');
    await commitFile(dir, 'notes.txt', null, bob, 'Remove notes');
    const { deleted, more } = await deletedFiles(dir, await head(), 0, 10);
    expect(deleted.map((d) => [d.path, d.commit])).toEqual([['c.md', removal]]);
    expect(more).toBe(false);
  });
});

describe('diffTexts', () => {
  it('answers git’s unified diff without function context, and its lines', async () => {
    const diff = await diffTexts('title: x\na\nb\n', 'title: x\na\nB\nc\n', 'p.md', 'q.md');
    expect(diff.unified).toBe('--- a/p.md\n+++ b/q.md\n@@ -1,3 +1,4 @@\n title: x\n a\n-b\n+B\n+c\n');
    expect(diff.hunks[0]?.lines).toEqual([
      { kind: 'context', old_line: 1, new_line: 1, text: 'title: x' },
      { kind: 'context', old_line: 2, new_line: 2, text: 'a' },
      { kind: 'removed', old_line: 3, new_line: null, text: 'b' },
      { kind: 'added', old_line: null, new_line: 3, text: 'B' },
      { kind: 'added', old_line: null, new_line: 4, text: 'c' },
    ]);
    expect(await diffTexts('same\n', 'same\n', 'p.md', 'p.md')).toEqual({ unified: '', hunks: [] });
  });
});
