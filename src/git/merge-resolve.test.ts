import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bob,
  cloneRepo,
  commitFile,
  createBareRepo,
  fileUrl,
  logOne,
  makeTempDir,
  pushClone,
  removeTempDir,
} from '../../test/helpers/git-fixtures.js';
import { runGit } from './git.js';
import { WorkspaceRepo } from './repository.js';

const carol = { authorName: 'Carol Author', authorEmail: 'carol@example.com' };

describe('mergeRemote with settled conflicts', () => {
  let tmp: string;
  let repo: WorkspaceRepo;
  beforeEach(async () => {
    tmp = await makeTempDir();
    const bare = await createBareRepo(tmp, 'docs');
    const clone = await cloneRepo(fileUrl(bare), join(tmp, 'clone'));
    await commitFile(clone, 'a.md', 'one\ntwo\n', bob);
    await commitFile(clone, 'b.md', 'keep\n', bob);
    await pushClone(clone);
    repo = new WorkspaceRepo(join(tmp, 'ws'));
    await runGit(tmp, ['clone', '-q', fileUrl(bare), 'ws']);
    await repo.init('main');
    // Both sides change the same line of a.md and of b.md.
    await commitFile(clone, 'a.md', 'one\ntwo (remote)\n', bob);
    await commitFile(clone, 'b.md', 'keep (remote)\n', bob);
    await pushClone(clone);
    await commitFile(repo.root, 'a.md', 'one\ntwo (local)\n', bob);
    await commitFile(repo.root, 'b.md', 'keep (local)\n', bob);
    await repo.fetch('main');
  });
  afterEach(() => removeTempDir(tmp));

  it('commits a merge with the settled texts when every conflicted path is answered', async () => {
    const asked: string[] = [];
    const result = await repo.mergeRemote('main', carol, {
      resolve: async (conflicts) => {
        asked.push(
          ...conflicts.map((c) => `${c.path}:${c.ours === null ? '-' : 'o'}${c.theirs === null ? '-' : 't'}`),
        );
        return new Map<string, string | null>([
          ['a.md', 'one\ntwo (both)\n'],
          ['b.md', null],
        ]);
      },
    });
    expect(asked).toEqual(['a.md:ot', 'b.md:ot']);
    expect(result.status).toBe('merged');
    expect(await readFile(join(repo.root, 'a.md'), 'utf8')).toBe('one\ntwo (both)\n');
    expect(await repo.showFile('HEAD', 'b.md')).toBeNull();
    expect((await logOne(repo.root, '%P')).split(' ')).toHaveLength(2);
    expect(await logOne(repo.root, '%an')).toBe('Carol Author');
    expect(await repo.isClean()).toBe(true);
    expect(result.changed.map((c) => c.path).sort()).toEqual(['a.md', 'b.md']);
  });

  it('aborts as before when a conflicted path is left unanswered', async () => {
    const head = await repo.head();
    const result = await repo.mergeRemote('main', carol, {
      resolve: async () => new Map([['a.md', 'one\ntwo (both)\n']]),
    });
    expect(result.status).toBe('conflict');
    expect(result.conflicts.map((c) => c.path)).toEqual(['a.md', 'b.md']);
    expect(await repo.head()).toBe(head);
    expect(await readFile(join(repo.root, 'a.md'), 'utf8')).toBe('one\ntwo (local)\n');
    expect(await repo.isClean()).toBe(true);
  });
});
