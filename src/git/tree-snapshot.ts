/**
 * A working tree recorded at one moment as a git tree object, committed later without
 * what was written after it: the start-up sweep's "changes left uncommitted" are the
 * files as they were before the server took requests, not the edits users make while
 * the sweep waits for its turn (those are committed under their authors).
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GitResult, RunGitOptions } from './git.js';

/** How a repository runs git (WorkspaceRepo's own runner). */
export type GitRunner = (args: readonly string[], options?: RunGitOptions) => Promise<GitResult>;

/** What the working tree held when the snapshot was taken. */
export interface TreeSnapshot {
  /** HEAD then; null before the first commit. */
  head: string | null;
  /** The tree object of every file then, as `git add -A` would have staged it. */
  tree: string;
  /** The paths whose content then differed from HEAD: added, changed or deleted. */
  paths: string[];
}

const names = (out: string): string[] => out.split('\0').filter((p) => p !== '');

/** The empty tree's id (it depends on the object format, so git is asked). */
async function emptyTree(git: GitRunner): Promise<string> {
  return (await git(['hash-object', '-t', 'tree', '--stdin'], { input: '' })).stdout.trim();
}

/** Paths that differ between two tree-ishes (a null one is the empty tree), renames as delete and add. */
async function changedPaths(git: GitRunner, from: string | null, to: string | null): Promise<string[]> {
  const r = await git([
    'diff-tree',
    '-r',
    '-z',
    '--no-renames',
    '--name-only',
    from ?? (await emptyTree(git)),
    to ?? (await emptyTree(git)),
  ]);
  return names(r.stdout);
}

/**
 * Records the working tree of the repository at `root` in a scratch index: the
 * repository's own index and its lock are left alone, so this may run beside another
 * process's commit. The file contents are written as git objects.
 */
export async function takeSnapshot(git: GitRunner, root: string): Promise<TreeSnapshot> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-snapshot-'));
  const index = join(dir, 'index');
  try {
    // Starting from the repository's index spares git re-reading the files whose stat data it holds.
    await copyFile(join(root, '.git', 'index'), index).catch(() => undefined);
    const env = { GIT_INDEX_FILE: index };
    await git(['add', '-A'], { env });
    const tree = (await git(['write-tree'], { env })).stdout.trim();
    // HEAD and its tree in one call (it fails before the first commit): a clean tree needs no diff.
    const at = await git(['rev-parse', '-q', 'HEAD^{commit}', 'HEAD^{tree}'], { allowFailure: true });
    const [head = null, headTree = null] = at.code === 0 ? at.stdout.trim().split('\n') : [];
    return { head, tree, paths: tree === headTree ? [] : await changedPaths(git, head, tree) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Stages in the repository's index exactly what `snapshot` held for its paths, leaving
 * out those a commit made since the snapshot already holds newer content of. The index
 * first goes back to `head` (the caller's HEAD now): anything else staged there was left
 * by a process that died between staging and committing. Answers the paths staged.
 */
export async function stageSnapshot(
  git: GitRunner,
  snapshot: TreeSnapshot,
  head: string | null,
): Promise<string[]> {
  const since = head === snapshot.head ? [] : await changedPaths(git, snapshot.head, head);
  const committed = new Set(since);
  const paths = snapshot.paths.filter((p) => !committed.has(p));
  if (paths.length === 0) return [];
  await git(head === null ? ['read-tree', '--empty'] : ['reset', '-q']);
  const wanted = new Set(paths);
  const lines: string[] = [];
  const listed = await git(['ls-tree', '-r', '-z', '--full-tree', snapshot.tree]);
  for (const entry of names(listed.stdout)) {
    const tab = entry.indexOf('\t');
    const path = entry.slice(tab + 1);
    if (!wanted.delete(path)) continue;
    const [mode, , sha] = entry.slice(0, tab).split(' ');
    lines.push(`${mode} ${sha}\t${path}`);
  }
  // What the snapshot no longer had was deleted: a mode-0 entry removes the path from the index.
  const zero = '0'.repeat(snapshot.tree.length);
  for (const path of wanted) lines.push(`0 ${zero}\t${path}`);
  await git(['update-index', '-z', '--index-info'], { input: lines.map((l) => `${l}\0`).join('') });
  return paths;
}
