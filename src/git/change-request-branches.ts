/**
 * Git plumbing of change requests: each request is a branch `folio/cr/<number>` of the
 * workspace repository, checked out in a worktree of its own outside the live tree, so
 * edits to it never touch the files the live site and index are built from. Callers hold
 * the workspace's repository lock for anything that changes refs of the live repository.
 */
import { rm } from 'node:fs/promises';
import { buildAuthEnv, GitError, NETWORK_ARGS, runGit, type GitAuth } from './git.js';
import type { ChangedPath, CommitOptions } from './repository.js';

/** The branch of change request `number`. */
export const changeRequestBranch = (number: number): string => `folio/cr/${number}`;

/** Both sides of a file a merge could not combine, and their common ancestor (null where absent). */
export interface ThreeWayConflict {
  path: string;
  base: string | null;
  ours: string | null;
  theirs: string | null;
}

export type BranchMergeResult =
  | { status: 'merged'; before: string | null; head: string; changed: ChangedPath[] }
  | { status: 'conflict'; conflicts: ThreeWayConflict[] };

const ident = (value: string, fallback: string): string => value.replace(/[<>\n\r]/g, '').trim() || fallback;

function identityEnv(o: Omit<CommitOptions, 'message'>): Record<string, string> {
  const name = ident(o.authorName, 'Folio');
  const email = ident(o.authorEmail, 'folio@localhost');
  return {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: o.committerName ? ident(o.committerName, name) : name,
    GIT_COMMITTER_EMAIL: o.committerEmail ? ident(o.committerEmail, email) : email,
  };
}

/** The commit `ref` names in the repository at `root`, or null. */
export async function resolveCommit(root: string, ref: string): Promise<string | null> {
  const r = await runGit(root, ['rev-parse', '-q', '--verify', `${ref}^{commit}`], { allowFailure: true });
  return r.code === 0 ? r.stdout.trim() : null;
}

/** Whether commit `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(root: string, ancestor: string, descendant: string): Promise<boolean> {
  const r = await runGit(root, ['merge-base', '--is-ancestor', ancestor, descendant], { allowFailure: true });
  return r.code === 0;
}

/** The best common ancestor of two commits, or null for unrelated histories. */
export async function mergeBase(root: string, a: string, b: string): Promise<string | null> {
  const r = await runGit(root, ['merge-base', a, b], { allowFailure: true });
  return r.code === 0 ? r.stdout.trim() : null;
}

/**
 * Creates `branch` at commit `base` checked out at `worktree` (a folder that must not be in
 * use). A folder or a worktree record a crash left there is cleared first.
 */
export async function addBranchWorktree(
  root: string,
  worktree: string,
  branch: string,
  base: string,
): Promise<void> {
  await rm(worktree, { recursive: true, force: true });
  await runGit(root, ['worktree', 'prune']);
  await runGit(root, ['worktree', 'add', '-q', '-b', branch, worktree, base]);
}

/**
 * Checks `branch` out at `worktree` again when the folder is gone (a restored backup, a
 * cleaned disk): the branch holds every committed edit, so nothing is lost.
 */
export async function restoreBranchWorktree(root: string, worktree: string, branch: string): Promise<void> {
  await rm(worktree, { recursive: true, force: true });
  await runGit(root, ['worktree', 'prune']);
  await runGit(root, ['worktree', 'add', '-q', worktree, branch]);
}

/** Removes the worktree and deletes the branch; what is already gone is no error. */
export async function removeBranchWorktree(root: string, worktree: string, branch: string): Promise<void> {
  await runGit(root, ['worktree', 'remove', '--force', worktree], { allowFailure: true });
  await rm(worktree, { recursive: true, force: true });
  await runGit(root, ['worktree', 'prune']);
  await runGit(root, ['branch', '-D', branch], { allowFailure: true });
}

/** Deletes `branch` on origin; a branch the remote no longer has is no error. */
export async function deleteRemoteBranch(root: string, branch: string, auth?: GitAuth): Promise<void> {
  const { env, secrets } = await buildAuthEnv(auth);
  const args = [...NETWORK_ARGS, 'push', '-q', '--no-verify', 'origin', `:refs/heads/${branch}`];
  const r = await runGit(root, args, { env, secrets, allowFailure: true });
  if (r.code !== 0 && !/remote ref does not exist/i.test(r.stderr)) {
    throw new GitError('git push origin --delete', r.code, r.stderr);
  }
}

/** The unified diff from `from` to `to`, renames detected, optionally of one path only. */
export async function unifiedDiff(
  root: string,
  from: string,
  to: string,
  paths: string[] = [],
): Promise<string> {
  const args = ['diff', '-M', '--no-color', '--no-ext-diff', '--unified=3', from, to, '--', ...paths];
  return (await runGit(root, ['--literal-pathspecs', ...args])).stdout;
}

/**
 * Merges `branch` into the checked-out branch of the clean tree at `root` with a merge
 * commit. On conflict every conflicted file's three versions are read, the merge is
 * aborted (the tree is left exactly as it was) and the conflicts are answered.
 */
export async function mergeBranch(
  root: string,
  branch: string,
  options: CommitOptions,
): Promise<BranchMergeResult> {
  const before = await resolveCommit(root, 'HEAD');
  const env = identityEnv(options);
  const flags = ['-q', '--no-ff', '--no-edit', '--no-verify'];
  const merge = await runGit(root, ['merge', ...flags, '-m', options.message, `refs/heads/${branch}`], {
    env,
    allowFailure: true,
  });
  if (merge.code === 0) {
    const head = (await resolveCommit(root, 'HEAD'))!;
    const names = await runGit(root, ['diff', '--name-status', '-z', '-M', before ?? head, head]);
    return { status: 'merged', before, head, changed: parseNameStatus(names.stdout) };
  }
  const conflicts = await readThreeWay(root);
  if ((await resolveCommit(root, 'MERGE_HEAD')) !== null) await runGit(root, ['merge', '--abort']);
  if (conflicts.length === 0) throw new GitError(`git merge ${branch}`, merge.code, merge.stderr);
  return { status: 'conflict', conflicts };
}

/** Stages 1, 2 and 3 of each unmerged path: the common ancestor, ours and theirs. */
async function readThreeWay(root: string): Promise<ThreeWayConflict[]> {
  const r = await runGit(root, ['ls-files', '-u', '-z']);
  const byPath = new Map<string, Partial<Record<'1' | '2' | '3', string>>>();
  for (const entry of r.stdout.split('\0')) {
    const m = /^\d+ ([0-9a-f]+) ([123])\t(.*)$/s.exec(entry);
    if (!m) continue;
    const [, sha, stage, path] = m as unknown as [string, string, '1' | '2' | '3', string];
    byPath.set(path, { ...byPath.get(path), [stage]: sha });
  }
  const blob = async (sha: string | undefined): Promise<string | null> =>
    sha === undefined ? null : (await runGit(root, ['cat-file', 'blob', sha])).stdout;
  const out: ThreeWayConflict[] = [];
  for (const [path, s] of byPath) {
    out.push({ path, base: await blob(s['1']), ours: await blob(s['2']), theirs: await blob(s['3']) });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** Parses `git diff --name-status -z -M` output (rename lines carry two paths). */
export function parseNameStatus(out: string): ChangedPath[] {
  const fields = out.split('\0');
  const changes: ChangedPath[] = [];
  for (let i = 0; i < fields.length - 1;) {
    const letter = (fields[i++] ?? '')[0];
    const first = fields[i++] ?? '';
    if (letter === 'R') changes.push({ status: 'R', path: fields[i++] ?? '', oldPath: first });
    else if (letter === 'C') changes.push({ status: 'A', path: fields[i++] ?? '' });
    else changes.push({ status: letter === 'A' || letter === 'D' ? letter : 'M', path: first });
  }
  return changes;
}
