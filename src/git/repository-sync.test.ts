import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bob,
  cloneRepo,
  commitFile,
  commitRename,
  createBareRepo,
  fileUrl,
  logOne,
  makeTempDir,
  pushClone,
  removeTempDir,
} from '../../test/helpers/git-fixtures.js';
import { startGitHttpServer, type GitHttpServer } from '../../test/helpers/git-http-server.js';
import { GitError, runGit } from './git.js';
import { WorkspaceRepo, type GitAuth } from './repository.js';

const carol = { authorName: 'Carol Author', authorEmail: 'carol@example.com' };
const PASSWORD = 'tok_9f8e7d6c5b4a-secret';
const auth: GitAuth = { kind: 'https', username: 'folio-bot', password: PASSWORD };

let tmp: string;
let bare: string;
let repo: WorkspaceRepo;
beforeEach(async () => {
  tmp = await makeTempDir();
  bare = await createBareRepo(tmp, 'docs');
  repo = new WorkspaceRepo(join(tmp, 'ws'), { timeoutMs: 30_000 });
  await repo.init('main');
});
afterEach(async () => {
  await removeTempDir(tmp);
});

/** Every file under .git that could persist a credential. */
async function gitMetadataText(root: string): Promise<string> {
  const files = ['config', 'FETCH_HEAD', 'packed-refs'];
  const logs = await readdir(join(root, '.git', 'logs'), { recursive: true }).catch(() => []);
  const texts = await Promise.all(
    [...files, ...logs.map((l) => join('logs', l))].map((f) =>
      readFile(join(root, '.git', f), 'utf8').catch(() => ''),
    ),
  );
  return texts.join('\n');
}

describe('over smart HTTP with Basic auth', () => {
  let server: GitHttpServer;
  beforeEach(async () => {
    server = await startGitHttpServer(tmp, { auth: { username: 'folio-bot', password: PASSWORD } });
  });
  afterEach(async () => {
    await server.close();
  });

  it('pushes and fetches without credentials reaching .git or errors', async () => {
    const url = `${server.url}/docs.git`;
    await repo.setRemote(url);
    await writeFile(join(repo.root, 'index.md'), '# Home\n');
    const sha = await repo.commitAll({ ...carol, message: 'Home' });
    await repo.push('main', auth);
    expect(await logOne(bare, '%H %an', 'main')).toBe(`${sha} Carol Author`);
    expect(await repo.fetch('main', auth)).toBe(sha);

    const meta = await gitMetadataText(repo.root);
    expect(meta).toContain(url);
    expect(meta).not.toContain(PASSWORD);
    expect(meta).not.toContain('folio-bot');
  });

  it('fails with kind auth on a wrong password, never echoing it', async () => {
    await repo.setRemote(`${server.url}/docs.git`);
    await writeFile(join(repo.root, 'index.md'), '# Home\n');
    await repo.commitAll({ ...carol, message: 'Home' });
    const wrong = 'wrong-password-123456';
    const e = await repo.push('main', { ...auth, password: wrong }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GitError);
    const err = e as GitError;
    expect(err.kind).toBe('auth');
    expect(`${err.message}${err.stderr}${err.command}`).not.toContain(wrong);
    expect(`${err.message}${err.stderr}${err.command}`).not.toContain(PASSWORD);
    // Without any auth git must fail at once rather than prompt on a terminal.
    await expect(repo.push('main')).rejects.toMatchObject({ kind: 'auth' });
  });

  it('reports a remote that answers 503 as unavailable and keeps the local commit', async () => {
    await repo.setRemote(`${server.url}/docs.git`);
    await writeFile(join(repo.root, 'index.md'), '# Home\n');
    const sha = await repo.commitAll({ ...carol, message: 'Home' });
    server.setDown(true);
    const push = await repo.push('main', auth).catch((x: unknown) => x);
    expect(push).toBeInstanceOf(GitError);
    expect((push as GitError).kind).toBe('unavailable');
    expect((push as GitError).stderr).toContain('503');
    await expect(repo.fetch('main', auth)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(await repo.head()).toBe(sha);
    expect(await readFile(join(repo.root, 'index.md'), 'utf8')).toBe('# Home\n');
    expect(await repo.isClean()).toBe(true);

    server.setDown(false);
    await repo.push('main', auth);
    expect(await logOne(bare, '%H', 'main')).toBe(sha);
  });
});

describe('mergeRemote', () => {
  let clone: string;
  beforeEach(async () => {
    // The remote starts with two pages; the workspace starts as a copy of it.
    clone = await cloneRepo(fileUrl(bare), join(tmp, 'laptop'));
    await commitFile(clone, 'guide.md', 'Line one\nLine two\nLine three\n', bob, 'Guide');
    await commitFile(clone, 'setup.md', 'Install the thing.\n'.repeat(10), bob, 'Setup');
    await pushClone(clone);
    await repo.setRemote(fileUrl(bare));
    await repo.fetch('main');
    await repo.mergeRemote('main');
  });

  it('started from the remote with a fast-forward into an unborn branch', async () => {
    expect(await repo.head()).toBe(await logOne(bare, '%H', 'main'));
    expect(await repo.listFilesAt('HEAD')).toEqual(['guide.md', 'setup.md']);
  });

  it('fast-forwards and reports added, modified, deleted and renamed paths', async () => {
    await commitRename(clone, 'setup.md', 'guides/setup.md', bob);
    await commitFile(clone, 'guide.md', 'Line one\nLine 2\nLine three\n', bob);
    await commitFile(clone, 'new.md', 'new\n', bob);
    await pushClone(clone);
    await commitFile(clone, 'new.md', null, bob);
    await commitFile(clone, 'later.md', 'later\n', bob);
    await pushClone(clone);

    const remoteSha = await repo.fetch('main');
    const result = await repo.mergeRemote('main');
    expect(result.status).toBe('fast-forward');
    expect(result.head).toBe(remoteSha);
    expect(result.conflicts).toEqual([]);
    expect(result.changed).toEqual(
      expect.arrayContaining([
        { status: 'R', path: 'guides/setup.md', oldPath: 'setup.md' },
        { status: 'M', path: 'guide.md' },
        { status: 'A', path: 'later.md' },
      ]),
    );
    expect(result.changed).toHaveLength(3); // new.md came and went
    expect(await readFile(join(repo.root, 'guides/setup.md'), 'utf8')).toContain('Install the thing.');
    expect(await repo.mergeRemote('main')).toMatchObject({ status: 'up-to-date', changed: [] });
  });

  it('merges divergent, non-overlapping edits with a merge commit', async () => {
    await commitFile(clone, 'remote-page.md', 'from laptop\n', bob);
    await pushClone(clone);
    await writeFile(join(repo.root, 'web-page.md'), 'from web\n');
    const local = await repo.commitAll({ ...carol, message: 'Web edit' });
    await repo.fetch('main');
    const result = await repo.mergeRemote('main', carol);
    expect(result.status).toBe('merged');
    expect(result.changed).toEqual([{ status: 'A', path: 'remote-page.md' }]);
    expect(await logOne(repo.root, '%P')).toContain(local ?? 'missing');
    expect(await logOne(repo.root, '%an')).toBe('Carol Author');
    await repo.push('main');
    expect(await logOne(bare, '%H', 'main')).toBe(result.head);
  });

  it('reports a real conflict with both texts and leaves the working tree as the local side had it', async () => {
    await commitFile(clone, 'guide.md', 'Line one\nLine two (laptop)\nLine three\n', bob);
    await commitFile(clone, 'unrelated.md', 'also remote\n', bob);
    await pushClone(clone);
    const ours = 'Line one\nLine two (web)\nLine three\n';
    await writeFile(join(repo.root, 'guide.md'), ours);
    const local = await repo.commitAll({ ...carol, message: 'Web edit' });
    const statusBefore = (await runGit(repo.root, ['status', '--porcelain', '--ignored'])).stdout;

    await repo.fetch('main');
    const result = await repo.mergeRemote('main');
    expect(result.status).toBe('conflict');
    expect(result.changed).toEqual([]);
    expect(result.conflicts).toEqual([
      { path: 'guide.md', ours, theirs: 'Line one\nLine two (laptop)\nLine three\n' },
    ]);
    expect(result.head).toBe(local);
    expect(await repo.head()).toBe(local);
    expect(await readFile(join(repo.root, 'guide.md'), 'utf8')).toBe(ours);
    await expect(readFile(join(repo.root, 'unrelated.md'))).rejects.toThrow();
    expect((await runGit(repo.root, ['status', '--porcelain', '--ignored'])).stdout).toBe(statusBefore);
    expect(
      (await runGit(repo.root, ['rev-parse', '-q', '--verify', 'MERGE_HEAD'], { allowFailure: true })).code,
    ).not.toBe(0);
  });

  it('reports a modify/delete conflict with null for the deleting side', async () => {
    await commitFile(clone, 'guide.md', null, bob);
    await pushClone(clone);
    await writeFile(join(repo.root, 'guide.md'), 'edited on the web\n');
    await repo.commitAll({ ...carol, message: 'Web edit' });
    await repo.fetch('main');
    const result = await repo.mergeRemote('main');
    expect(result.status).toBe('conflict');
    expect(result.conflicts).toEqual([{ path: 'guide.md', ours: 'edited on the web\n', theirs: null }]);
    expect(await readFile(join(repo.root, 'guide.md'), 'utf8')).toBe('edited on the web\n');
  });

  it('refuses to merge over uncommitted tracked changes', async () => {
    await commitFile(clone, 'guide.md', 'remote change\n', bob);
    await pushClone(clone);
    await writeFile(join(repo.root, 'setup.md'), 'unsaved\n');
    await repo.fetch('main');
    await expect(repo.mergeRemote('main')).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await readFile(join(repo.root, 'setup.md'), 'utf8')).toBe('unsaved\n');
  });

  it('push is rejected when the remote moved on, until the workspace merges', async () => {
    await commitFile(clone, 'remote-page.md', 'from laptop\n', bob);
    await pushClone(clone);
    await writeFile(join(repo.root, 'web.md'), 'web\n');
    await repo.commitAll({ ...carol, message: 'Web' });
    await expect(repo.push('main')).rejects.toMatchObject({ kind: 'rejected' });
    await repo.fetch('main');
    expect((await repo.mergeRemote('main')).status).toBe('merged');
    await repo.push('main');
  });
});
