import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import {
  cloneRepo,
  createBareRepo,
  fileUrl,
  logOne,
  makeTempDir,
  removeTempDir,
} from '../../test/helpers/git-fixtures.js';
import { runGit } from './git.js';
import { buildAuthEnv, WorkspaceRepo } from './repository.js';

const carol = { authorName: 'Carol Author', authorEmail: 'carol@example.com' };

let tmp: string;
let repo: WorkspaceRepo;
beforeEach(async () => {
  tmp = await makeTempDir();
  repo = new WorkspaceRepo(join(tmp, 'ws'));
  await repo.init('main');
});
afterEach(async () => {
  await removeTempDir(tmp);
});

const write = async (path: string, content: string): Promise<void> => {
  await mkdir(join(repo.root, path, '..'), { recursive: true });
  await writeFile(join(repo.root, path), content);
};

describe('init', () => {
  it('creates the repository on the branch, ignores .folio/, and is idempotent', async () => {
    await repo.init('main');
    const ignore = await readFile(join(repo.root, '.gitignore'), 'utf8');
    expect(ignore.match(/\.folio\//g)).toHaveLength(1);
    const branch = await runGit(repo.root, ['symbolic-ref', '--short', 'HEAD']);
    expect(branch.stdout.trim()).toBe('main');
    await write('.folio/workspace.json', '{}');
    await write('index.md', '# Home\n');
    expect(await repo.commitAll({ ...carol, message: 'First' })).toMatch(/^[0-9a-f]{40}$/);
    expect(await repo.listFilesAt('HEAD')).toEqual(['.gitignore', 'index.md']);
  });

  it('keeps an existing .gitignore and appends the rule once', async () => {
    const other = new WorkspaceRepo(join(tmp, 'other'));
    await mkdir(other.root);
    await writeFile(join(other.root, '.gitignore'), 'node_modules');
    await other.init('docs');
    await other.init('docs');
    expect(await readFile(join(other.root, '.gitignore'), 'utf8')).toBe('node_modules\n.folio/\n');
    expect((await runGit(other.root, ['symbolic-ref', '--short', 'HEAD'])).stdout.trim()).toBe('docs');
  });

  it('refuses a branch name git would not accept', async () => {
    const bad = new WorkspaceRepo(join(tmp, 'bad'));
    await expect(bad.init('-x')).rejects.toBeInstanceOf(AppError);
    await expect(bad.init('a..b')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});

describe('commits', () => {
  it('records the given author, visible in git log', async () => {
    await write('guide.md', 'hello\n');
    const sha = await repo.commitPaths(['guide.md'], { ...carol, message: 'Add guide' });
    expect(sha).toBe(await repo.head());
    expect(await logOne(repo.root, '%an <%ae>')).toBe('Carol Author <carol@example.com>');
    expect(await logOne(repo.root, '%cn <%ce>')).toBe('Carol Author <carol@example.com>');
    expect(await logOne(repo.root, '%s')).toBe('Add guide');
  });

  it('commits only the given paths, including deletions, and is a no-op without changes', async () => {
    await write('a.md', 'a\n');
    await write('b.md', 'b\n');
    await repo.commitPaths(['a.md', 'b.md'], { ...carol, message: 'Two' });
    expect(await repo.commitPaths(['a.md'], { ...carol, message: 'Nothing' })).toBeNull();

    await rm(join(repo.root, 'a.md'));
    await write('b.md', 'b2\n');
    await write('c.md', 'c\n');
    const sha = await repo.commitPaths(['a.md', 'c.md', 'never-existed.md'], { ...carol, message: 'Mixed' });
    expect(sha).not.toBeNull();
    expect(await repo.listFilesAt('HEAD')).toEqual(['b.md', 'c.md']);
    expect(await repo.showFile('HEAD', 'b.md')).toBe('b\n'); // b.md was not in the list
    expect(await repo.isClean()).toBe(false);
    const all = await repo.commitAll({ ...carol, message: 'Rest' });
    expect(await repo.showFile(all ?? 'HEAD', 'b.md')).toBe('b2\n');
    expect(await repo.commitAll({ ...carol, message: 'Again' })).toBeNull();
  });

  it('treats paths literally (no glob expansion)', async () => {
    await write('x*.md', 'star\n');
    await write('xy.md', 'other\n');
    await repo.commitPaths(['x*.md'], { ...carol, message: 'Star' });
    expect(await repo.listFilesAt('HEAD')).toEqual(['x*.md']);
  });
});

describe('snapshots', () => {
  const show = async (path: string) => (await repo.showFile('HEAD', path)) ?? null;

  it('commits what the tree held when taken, not what was written after', async () => {
    await write('a.md', 'a1');
    await write('gone.md', 'g');
    await repo.commitAll({ ...carol, message: 'First' });
    await write('a.md', 'a2');
    await write('new.md', 'n');
    await rm(join(repo.root, 'gone.md'));
    const snapshot = await repo.snapshot();
    expect(snapshot.paths.sort()).toEqual(['a.md', 'gone.md', 'new.md']);
    // Written after the snapshot: not part of it.
    await write('a.md', 'a3');
    await write('later.md', 'l');
    await write('new.md', 'n2');
    // Left staged by a process that died before committing.
    await write('staged.md', 's');
    await runGit(repo.root, ['add', 'staged.md']);

    expect(await repo.commitSnapshot(snapshot, { ...carol, message: 'Left over' })).toMatch(/^[0-9a-f]{40}$/);
    expect(await show('a.md')).toBe('a2');
    expect(await show('new.md')).toBe('n');
    expect(await show('gone.md')).toBeNull();
    expect(await show('later.md')).toBeNull();
    expect(await show('staged.md')).toBeNull();
    // The later writes are still there to be committed.
    const status = await runGit(repo.root, ['status', '--porcelain']);
    expect(status.stdout.split('\n').filter(Boolean).sort()).toEqual([
      ' M a.md',
      ' M new.md',
      '?? later.md',
      '?? staged.md',
    ]);
  });

  it('leaves out paths committed since, and answers null when nothing is left', async () => {
    await write('a.md', 'a1');
    await write('b.md', 'b1');
    const snapshot = await repo.snapshot();
    expect(snapshot).toMatchObject({ head: null, paths: ['.gitignore', 'a.md', 'b.md'] });
    await write('a.md', 'a2');
    await repo.commitPaths(['a.md'], { ...carol, message: 'Edit a' });

    await repo.commitSnapshot(snapshot, { ...carol, message: 'Left over' });
    expect(await show('a.md')).toBe('a2');
    expect(await show('b.md')).toBe('b1');
    expect(await repo.listFilesAt('HEAD')).toEqual(['.gitignore', 'a.md', 'b.md']);
    expect(await repo.commitSnapshot(snapshot, { ...carol, message: 'Again' })).toBeNull();
    expect((await repo.snapshot()).paths).toEqual([]);
  });
});

describe('diffNames, tags and reading history', () => {
  it('reports adds, edits, deletions and renames between commits', async () => {
    await write('docs/setup.md', 'Setup\n'.repeat(20));
    await write('gone.md', 'bye\n');
    await write('edit.md', 'one\n');
    const first = await repo.commitAll({ ...carol, message: 'One' });
    await rm(join(repo.root, 'gone.md'));
    await rm(join(repo.root, 'docs/setup.md'));
    await write('guides/install.md', 'Setup\n'.repeat(20));
    await write('edit.md', 'two\n');
    await write('new.md', 'new\n');
    const second = await repo.commitAll({ ...carol, message: 'Two' });
    const changes = await repo.diffNames(first, second);
    expect(changes).toEqual(
      expect.arrayContaining([
        { status: 'R', path: 'guides/install.md', oldPath: 'docs/setup.md' },
        { status: 'D', path: 'gone.md' },
        { status: 'M', path: 'edit.md' },
        { status: 'A', path: 'new.md' },
      ]),
    );
    expect(changes).toHaveLength(4);
    expect((await repo.diffNames(null, first)).map((c) => c.status)).toEqual(['A', 'A', 'A', 'A']);
  });

  it('tags, reads files at a tag, and deletes tags', async () => {
    await write('page.md', 'v1\n');
    const v1 = await repo.commitAll({ ...carol, message: 'v1' });
    expect(await repo.tag('v1.0', 'Version 1.0')).toBe(v1);
    await write('page.md', 'v2\n');
    await write('img/logo.png', '\x89PNG');
    await repo.commitAll({ ...carol, message: 'v2' });
    expect(await repo.showFile('v1.0', 'page.md')).toBe('v1\n');
    expect(await repo.showFile('HEAD', 'page.md')).toBe('v2\n');
    expect(await repo.showFile('v1.0', 'img/logo.png')).toBeNull();
    expect(await repo.showFile('no-such-tag', 'page.md')).toBeNull();
    expect(await repo.listFilesAt('v1.0')).toEqual(['.gitignore', 'page.md']);
    await expect(repo.tag('v1.0', 'again')).rejects.toThrow();
    await expect(repo.tag('bad name', 'x')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await repo.deleteTag('v1.0')).toBe(true);
    expect(await repo.deleteTag('v1.0')).toBe(false);
    expect(await repo.showFile('v1.0', 'page.md')).toBeNull();
  });
});

describe('push over file://', () => {
  it('pushes commits to a bare remote with authorship intact', async () => {
    const bare = await createBareRepo(tmp);
    await repo.setRemote(fileUrl(bare));
    await write('index.md', '# Home\n');
    const sha = await repo.commitAll({ ...carol, message: 'Home' });
    await repo.push('main');
    expect(await logOne(bare, '%H %an <%ae>', 'main')).toBe(`${sha} Carol Author <carol@example.com>`);
    // The pushed tree is readable by anyone who clones it.
    const clone = await cloneRepo(fileUrl(bare), join(tmp, 'clone'));
    expect(await readFile(join(clone, 'index.md'), 'utf8')).toBe('# Home\n');
  });

  it('refuses a remote URL carrying a password, and can remove the remote', async () => {
    await expect(repo.setRemote('https://u:p@example.com/r.git')).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'git_remote' },
    });
    await repo.setRemote('https://example.com/a.git');
    await repo.setRemote('https://example.com/b.git');
    expect((await runGit(repo.root, ['remote', 'get-url', 'origin'])).stdout.trim()).toBe(
      'https://example.com/b.git',
    );
    await repo.setRemote(null);
    expect((await runGit(repo.root, ['remote'])).stdout.trim()).toBe('');
  });

  it('fetch returns null for a remote without the branch', async () => {
    const bare = await createBareRepo(tmp, 'empty');
    await repo.setRemote(fileUrl(bare));
    expect(await repo.fetch('main')).toBeNull();
    expect(await repo.mergeRemote('main')).toMatchObject({
      status: 'up-to-date',
      changed: [],
      conflicts: [],
    });
  });
});

describe('buildAuthEnv', () => {
  it('puts https credentials only in the environment of an askpass helper', async () => {
    const { env, secrets } = await buildAuthEnv({ kind: 'https', username: 'bot', password: 'pa ss$word' });
    expect(env.FOLIO_GIT_PASSWORD).toBe('pa ss$word');
    expect(secrets).toEqual(['pa ss$word']);
    const helper = env.GIT_ASKPASS ?? '';
    expect(existsSync(helper)).toBe(true);
    expect(await readFile(helper, 'utf8')).not.toContain('pa ss$word');
    const asked = await runGit(tmp, ['credential', 'fill'], {
      input: 'protocol=https\nhost=example.com\n\n',
      env,
    });
    expect(asked.stdout).toContain('username=bot\n');
    expect(asked.stdout).toContain('password=pa ss$word\n');
  });

  it('builds an ssh command with the key, no agent identities and accept-new host keys', async () => {
    const { env } = await buildAuthEnv({ kind: 'ssh', privateKeyPath: "/data/keys/it's.key" });
    expect(env.GIT_SSH_COMMAND).toContain(`-i '/data/keys/it'\\''s.key'`);
    expect(env.GIT_SSH_COMMAND).toContain('-o IdentitiesOnly=yes');
    expect(env.GIT_SSH_COMMAND).toContain('-o StrictHostKeyChecking=accept-new');
  });
});
