/**
 * Real git repositories for tests: bare remotes, clones acting as "another
 * writer" (a user pushing from their laptop), all under os.tmpdir().
 */
import { mkdir, mkdtemp, rm, writeFile, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runGit } from '../../src/git/git.js';

export interface Author {
  name: string;
  email: string;
}

export const alice: Author = { name: 'Alice Writer', email: 'alice@example.com' };
export const bob: Author = { name: 'Bob Editor', email: 'bob@example.com' };

const authorEnv = (a: Author): Record<string, string> => ({
  GIT_AUTHOR_NAME: a.name,
  GIT_AUTHOR_EMAIL: a.email,
  GIT_COMMITTER_NAME: a.name,
  GIT_COMMITTER_EMAIL: a.email,
});

/** A fresh temp directory; remove it with removeTempDir. */
export const makeTempDir = (prefix = 'folio-git-'): Promise<string> => mkdtemp(join(tmpdir(), prefix));

export const removeTempDir = (dir: string): Promise<void> => rm(dir, { recursive: true, force: true });

/** Creates `<parent>/<name>.git` as an empty bare repository; returns its path. */
export async function createBareRepo(parent: string, name = 'remote', branch = 'main'): Promise<string> {
  const path = join(parent, `${name}.git`);
  await runGit(parent, ['init', '-q', '--bare', '-b', branch, path]);
  return path;
}

/** file:// URL of a local path. */
export const fileUrl = (path: string): string => pathToFileURL(path).href;

/** Clones `url` into `dir`, checking out `branch` when the remote has it. */
export async function cloneRepo(url: string, dir: string, branch = 'main'): Promise<string> {
  await runGit(dirname(dir), ['clone', '-q', url, dir]);
  const r = await runGit(dir, ['rev-parse', '-q', '--verify', `origin/${branch}`], { allowFailure: true });
  if (r.code === 0) await runGit(dir, ['checkout', '-q', branch]);
  else await runGit(dir, ['checkout', '-q', '-b', branch]);
  return dir;
}

/** Writes (or, with content null, deletes) a file and commits it as `author`; returns the sha. */
export async function commitFile(
  dir: string,
  path: string,
  content: string | null,
  author: Author = alice,
  message = `Update ${path}`,
): Promise<string> {
  const full = join(dir, path);
  if (content === null) await unlink(full);
  else {
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
  }
  await runGit(dir, ['add', '-A']);
  await runGit(dir, ['commit', '-q', '-m', message], { env: authorEnv(author) });
  return (await runGit(dir, ['rev-parse', 'HEAD'])).stdout.trim();
}

/** Renames a file with `git mv` and commits it. */
export async function commitRename(
  dir: string,
  from: string,
  to: string,
  author: Author = alice,
): Promise<string> {
  await mkdir(dirname(join(dir, to)), { recursive: true });
  await runGit(dir, ['mv', from, to]);
  await runGit(dir, ['commit', '-q', '-m', `Move ${from} to ${to}`], { env: authorEnv(author) });
  return (await runGit(dir, ['rev-parse', 'HEAD'])).stdout.trim();
}

/** Pushes the clone's branch to its origin. */
export async function pushClone(dir: string, branch = 'main'): Promise<void> {
  await runGit(dir, ['push', '-q', 'origin', `${branch}:${branch}`]);
}

/**
 * Pushes the clone's branch while a running Folio may push to the same remote: when the push
 * is refused because the remote moved, rebase onto it and try again.
 */
export async function pushCloneRebasing(
  dir: string,
  author: Author,
  branch = 'main',
  attempts = 5,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const push = await runGit(dir, ['push', '-q', 'origin', `${branch}:${branch}`], { allowFailure: true });
    if (push.code === 0) return;
    if (attempt === attempts)
      throw new Error(`push still refused after ${attempts} attempts: ${push.stderr}`);
    await runGit(dir, ['pull', '-q', '--rebase', 'origin', branch], { env: authorEnv(author) });
  }
}

/** `git log -1 --format=<format>` of `ref` in a repository or bare repository. */
export async function logOne(dir: string, format: string, ref = 'HEAD'): Promise<string> {
  return (await runGit(dir, ['log', '-1', `--format=${format}`, ref])).stdout.trim();
}
