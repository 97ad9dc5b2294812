/**
 * One workspace's git working tree (DATA_DIR/workspaces/<id>/). Callers must
 * serialise operations per workspace with a WorkspaceLock: git itself only
 * protects the index with index.lock and fails rather than waits.
 */
import { access, appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, invalid } from '../errors.js';
import {
  buildAuthEnv,
  GitError,
  NETWORK_ARGS,
  runGit,
  type GitAuth,
  type GitResult,
  type RunGitOptions,
} from './git.js';
import { stageSnapshot, takeSnapshot, type TreeSnapshot } from './tree-snapshot.js';

export { buildAuthEnv, type GitAuth } from './git.js';
export type { TreeSnapshot } from './tree-snapshot.js';

/** Who commits on behalf of the web (and authors what no user did: the CLI, changes found on disk). */
export const FOLIO_IDENTITY = { name: 'Folio', email: 'folio@localhost' } as const;

/** Who a commit is by, and why. The committer is the author unless given. */
export interface CommitOptions {
  authorName: string;
  authorEmail: string;
  message: string;
  committerName?: string;
  committerEmail?: string;
}

export interface ChangedPath {
  status: 'A' | 'M' | 'D' | 'R';
  path: string;
  /** Set for renames: where the file was before. */
  oldPath?: string;
}

/** Both sides of a conflicted file; null where that side deleted it. */
export interface ConflictFile {
  path: string;
  ours: string | null;
  theirs: string | null;
}

export interface MergeOptions {
  /**
   * Asked when the merge conflicts: the text to commit for each conflicted path
   * (null deletes it). When every conflicted path is answered the merge is
   * committed with those texts; otherwise it is aborted as usual.
   */
  resolve?: (conflicts: ConflictFile[]) => Promise<ReadonlyMap<string, string | null>>;
}

export interface MergeResult {
  status: 'up-to-date' | 'fast-forward' | 'merged' | 'conflict';
  /** Paths the merge changed in the working tree (empty for 'up-to-date' and 'conflict'). */
  changed: ChangedPath[];
  /** Only for 'conflict'; the merge was aborted and nothing of the remote side was applied. */
  conflicts: ConflictFile[];
  /** HEAD after the operation. */
  head: string | null;
}

const exists = (path: string): Promise<boolean> => access(path).then(() => true, () => false); // prettier-ignore

const REMOTE = 'origin';
const FALLBACK_NAME = FOLIO_IDENTITY.name;
const FALLBACK_EMAIL = FOLIO_IDENTITY.email;
/** How often staging is tried when files vanish under it (see commitPaths). */
const STAGE_ATTEMPTS = 3;
/** One entry of `git ls-tree -r -l`. */
export interface TreeEntry {
  /** Octal mode as git prints it: 100644/100755 regular file, 120000 symlink, 160000 submodule. */
  mode: string;
  /** blob, tree or commit. */
  type: string;
  object: string;
  /** Bytes of a blob; 0 for a submodule. */
  size: number;
  path: string;
}

/** Strips characters git refuses in identities, falling back when nothing is left. */
const ident = (value: string, fallback: string): string => value.replace(/[<>\n\r]/g, '').trim() || fallback;

function identityEnv(o: CommitOptions): Record<string, string> {
  const name = ident(o.authorName, FALLBACK_NAME);
  const email = ident(o.authorEmail, FALLBACK_EMAIL);
  return {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: o.committerName ? ident(o.committerName, name) : name,
    GIT_COMMITTER_EMAIL: o.committerEmail ? ident(o.committerEmail, email) : email,
  };
}

/** Parses `git diff --name-status -z -M` output (R lines carry two paths). */
function parseNameStatus(out: string): ChangedPath[] {
  const fields = out.split('\0');
  const changes: ChangedPath[] = [];
  for (let i = 0; i < fields.length - 1;) {
    const letter = (fields[i++] ?? '')[0];
    const first = fields[i++] ?? '';
    // R (rename) and C (copy) carry the source path first; a copy is an addition for Folio's purposes.
    if (letter === 'R') changes.push({ status: 'R', path: fields[i++] ?? '', oldPath: first });
    else if (letter === 'C') changes.push({ status: 'A', path: fields[i++] ?? '' });
    else changes.push({ status: letter === 'A' || letter === 'D' ? letter : 'M', path: first }); // M, T, U
  }
  return changes;
}

/** A git working tree at `root`, with origin as its only remote. */
export class WorkspaceRepo {
  /**
   * @param root the working tree directory
   * @param options.timeoutMs limit for network operations (fetch, push); local ones use runGit's default
   */
  constructor(
    readonly root: string,
    private readonly options: { timeoutMs?: number } = {},
  ) {}

  private git(args: readonly string[], options?: RunGitOptions): Promise<GitResult> {
    return runGit(this.root, args, options);
  }

  /**
   * Creates the repository if absent (idempotent), sets a local fallback
   * identity for merge commits and tags, and ensures `.gitignore` excludes
   * `.folio/` (workspace metadata that must never be pushed).
   */
  async init(branch: string): Promise<void> {
    await mkdir(this.root, { recursive: true });
    // HEAD, not just `.git`: Folio keeps a marker file in `.git` even where git init failed.
    if (!(await exists(join(this.root, '.git', 'HEAD')))) {
      await assertRefName('git_branch', branch);
      await this.git(['init', '-q', '-b', branch]);
    }
    const identity = { 'user.name': FALLBACK_NAME, 'user.email': FALLBACK_EMAIL };
    for (const [key, value] of Object.entries(identity)) {
      const current = await this.git(['config', '--local', '--get', key], { allowFailure: true });
      if (current.code !== 0) await this.git(['config', '--local', key, value]);
    }
    await this.git(['config', '--local', 'core.autocrlf', 'false']);
    const ignorePath = join(this.root, '.gitignore');
    const ignore = await readFile(ignorePath, 'utf8').catch(() => '');
    if (!/^\/?\.folio\/?\s*$/m.test(ignore)) {
      await appendFile(ignorePath, `${ignore === '' || ignore.endsWith('\n') ? '' : '\n'}.folio/\n`);
    }
  }

  /**
   * Stages exactly `paths` (relative to the root; additions, edits and
   * deletions alike) and commits the index. Returns the new sha, or null when
   * nothing changed. Anything staged earlier is committed too.
   */
  async commitPaths(paths: readonly string[], options: CommitOptions): Promise<string | null> {
    if (paths.length === 0) return null;
    // Page writes go on while a commit runs, so a file seen here may be deleted before
    // `git add` reads it, which then matches nothing: look again and stage anew.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.stagePaths(paths);
        break;
      } catch (error) {
        const vanished = error instanceof GitError && /did not match any file/.test(error.stderr);
        if (!vanished || attempt === STAGE_ATTEMPTS) throw error;
      }
    }
    return this.commitIndex(options);
  }

  /** Stages the paths as they are now: present ones added, missing ones removed from the index. */
  private async stagePaths(paths: readonly string[]): Promise<void> {
    const present: string[] = [];
    const gone: string[] = [];
    for (const p of paths) {
      ((await exists(join(this.root, p))) ? present : gone).push(p);
    }
    // Paths are fed NUL-separated on stdin as literal pathspecs: no argv limit, no glob or ":(magic)" surprises.
    const fromStdin = ['--pathspec-from-file=-', '--pathspec-file-nul'];
    if (present.length > 0) {
      await this.git(['--literal-pathspecs', 'add', '-A', ...fromStdin], { input: present.join('\0') });
    }
    if (gone.length > 0) {
      const rm = ['--literal-pathspecs', 'rm', '-r', '-q', '--cached', '--ignore-unmatch', ...fromStdin];
      await this.git(rm, { input: gone.join('\0') });
    }
  }

  /**
   * Deletes every file git tracks under `folder` (from the index and the working tree;
   * untracked files there stay) and commits that; null when git tracks nothing there.
   */
  async removeTracked(folder: string, options: CommitOptions): Promise<string | null> {
    await this.git(['--literal-pathspecs', 'rm', '-r', '-q', '-f', '--ignore-unmatch', '--', folder]);
    return this.commitIndex(options);
  }

  /** Stages every change in the tree (respecting .gitignore) and commits; null when nothing changed. */
  async commitAll(options: CommitOptions): Promise<string | null> {
    await this.git(['add', '-A']);
    return this.commitIndex(options);
  }

  /** Whether the repository exists (its HEAD file; Folio keeps a marker in `.git` even without one). */
  isRepository(): Promise<boolean> {
    return exists(join(this.root, '.git', 'HEAD'));
  }

  /** What the working tree holds now, kept as a tree object (tree-snapshot.ts); the index is left alone. */
  async snapshot(): Promise<TreeSnapshot> {
    return takeSnapshot((args, options) => this.git(args, options), this.root);
  }

  /**
   * Commits what `snapshot` held for the paths it found changed, whatever the files hold
   * now, except paths a commit made since it already holds. Null when nothing is left.
   */
  async commitSnapshot(snapshot: TreeSnapshot, options: CommitOptions): Promise<string | null> {
    const staged = await stageSnapshot((args, opts) => this.git(args, opts), snapshot, await this.head());
    return staged.length === 0 ? null : this.commitIndex(options);
  }

  private async commitIndex(options: CommitOptions): Promise<string | null> {
    const staged = await this.git(['diff', '--cached', '--quiet'], { allowFailure: true });
    if (staged.code === 0) return null;
    await this.git(['commit', '-q', '--no-verify', '-F', '-'], {
      input: options.message.trim() || 'Update',
      env: identityEnv(options),
    });
    return this.head();
  }

  /** The sha HEAD points at, or null before the first commit. */
  async head(): Promise<string | null> {
    const r = await this.git(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { allowFailure: true });
    return r.code === 0 ? r.stdout.trim() : null;
  }

  /** True when no tracked file differs from HEAD (untracked files do not count). */
  async isClean(): Promise<boolean> {
    const r = await this.git(['status', '--porcelain', '--untracked-files=no']);
    return r.stdout.trim() === '';
  }

  /**
   * Points origin at `url`, or removes origin when null. A URL carrying a
   * password is refused: credentials belong in GitAuth, never in .git/config.
   */
  async setRemote(url: string | null): Promise<void> {
    const has = (await this.git(['remote'])).stdout.split('\n').includes(REMOTE);
    if (url === null) {
      if (has) await this.git(['remote', 'remove', REMOTE]);
      return;
    }
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/@]*:[^/@]*@/i.test(url)) {
      throw invalid('git_remote', 'Put credentials in the sync settings, not in the remote URL');
    }
    if (url.startsWith('-')) throw invalid('git_remote', 'Invalid git remote');
    await this.git(has ? ['remote', 'set-url', REMOTE, url] : ['remote', 'add', REMOTE, url]);
  }

  /**
   * Fetches `branch` from origin into refs/remotes/origin/<branch>. Returns the
   * fetched sha, or null when the remote has no such branch (an empty remote).
   * Touches neither the index nor the checked-out branch, so it may run while
   * page writes and commits go on (but not beside another fetch of the same repository).
   */
  async fetch(branch: string, auth?: GitAuth): Promise<string | null> {
    await assertRefName('git_branch', branch);
    const { env, secrets } = await buildAuthEnv(auth);
    const refspec = `+refs/heads/${branch}:refs/remotes/${REMOTE}/${branch}`;
    const args = [...NETWORK_ARGS, 'fetch', '-q', '--no-tags', '--no-write-fetch-head', REMOTE, refspec];
    const r = await this.git(args, {
      env,
      secrets,
      timeoutMs: this.options.timeoutMs,
      allowFailure: true,
    });
    if (r.code !== 0) {
      if (/couldn't find remote ref/i.test(r.stderr)) return null;
      throw new GitError(`git fetch ${REMOTE} ${refspec}`, r.code, r.stderr);
    }
    return this.resolve(`refs/remotes/${REMOTE}/${branch}`);
  }

  /** Pushes the local branch to origin's branch of the same name. A non-fast-forward fails with kind 'rejected'. */
  async push(branch: string, auth?: GitAuth): Promise<void> {
    await assertRefName('git_branch', branch);
    const { env, secrets } = await buildAuthEnv(auth);
    const refspec = `refs/heads/${branch}:refs/heads/${branch}`;
    await this.git([...NETWORK_ARGS, 'push', '-q', '--no-verify', REMOTE, refspec], {
      env,
      secrets,
      timeoutMs: this.options.timeoutMs,
    });
  }

  /**
   * Merges the last fetched origin/<branch> into the checked-out branch.
   * Unrelated histories are allowed (a workspace created before its remote had
   * content). On conflict both sides' full text is captured, the merge is
   * aborted so the working tree stays exactly the local side (the web copy
   * keeps serving), and the conflicts are reported, unless `options.resolve`
   * settles every conflicted path (a resolution the user already made), in
   * which case the merge is committed with those texts. Requires a clean tree:
   * commit first, or 409 CONFLICT is thrown.
   */
  async mergeRemote(
    branch: string,
    identity?: Omit<CommitOptions, 'message'>,
    options: MergeOptions = {},
  ): Promise<MergeResult> {
    await assertRefName('git_branch', branch);
    const theirs = await this.resolve(`refs/remotes/${REMOTE}/${branch}`);
    const before = await this.head();
    const upToDate: MergeResult = { status: 'up-to-date', changed: [], conflicts: [], head: before };
    if (theirs === null || theirs === before) return upToDate;
    if (!(await this.isClean())) {
      throw new AppError('CONFLICT', 'The workspace has uncommitted changes; commit them before merging');
    }
    // One merge-base answers both questions: when one side descends from the other, that
    // other side is their only best common ancestor.
    const base = before === null ? null : await this.mergeBase(before, theirs);
    if (base === theirs) return upToDate;

    if (before === null || base === before) {
      await this.git(['merge', '-q', '--ff-only', theirs]);
      return {
        status: 'fast-forward',
        changed: await this.diffNames(before, theirs),
        conflicts: [],
        head: theirs,
      };
    }

    const env = identity ? identityEnv({ ...identity, message: '' }) : {};
    const message = `Merge ${REMOTE}/${branch}`;
    const flags = ['-q', '--no-ff', '--no-edit', '--no-verify', '--allow-unrelated-histories'];
    const merge = await this.git(['merge', ...flags, '-m', message, theirs], { env, allowFailure: true });
    if (merge.code === 0) {
      const after = await this.head();
      return { status: 'merged', changed: await this.diffNames(before, after), conflicts: [], head: after };
    }
    const conflicts = await this.readConflicts();
    const settled = conflicts.length > 0 ? await options.resolve?.(conflicts) : undefined;
    if (settled && conflicts.every((c) => settled.has(c.path))) {
      await this.commitResolvedMerge(conflicts, settled, env);
      const after = await this.head();
      return { status: 'merged', changed: await this.diffNames(before, after), conflicts: [], head: after };
    }
    const merging = await this.resolve('MERGE_HEAD');
    if (merging !== null) await this.git(['merge', '--abort']);
    // No unmerged entries means git failed for another reason (e.g. an untracked file in the way).
    if (conflicts.length === 0) throw new GitError(`git merge ${REMOTE}/${branch}`, merge.code, merge.stderr);
    return { status: 'conflict', changed: [], conflicts, head: await this.head() };
  }

  /** Writes the settled text of each conflicted path (null: delete it), stages it and commits the merge. */
  private async commitResolvedMerge(
    conflicts: ConflictFile[],
    settled: ReadonlyMap<string, string | null>,
    env: Record<string, string>,
  ): Promise<void> {
    for (const { path } of conflicts) {
      const text = settled.get(path) ?? null;
      if (text === null) {
        await this.git(['--literal-pathspecs', 'rm', '-q', '-f', '--ignore-unmatch', '--', path]);
      } else {
        await writeFile(join(this.root, path), text);
        await this.git(['--literal-pathspecs', 'add', '--', path]);
      }
    }
    await this.git(['commit', '-q', '--no-edit', '--no-verify'], { env });
  }

  /** Both sides of each unmerged path: stage 2 is ours, stage 3 theirs (as `git show :2:path`). */
  private async readConflicts(): Promise<ConflictFile[]> {
    const r = await this.git(['ls-files', '-u', '-z']);
    const byPath = new Map<string, { ours?: string; theirs?: string }>();
    for (const entry of r.stdout.split('\0')) {
      const m = /^\d+ ([0-9a-f]+) ([123])\t(.*)$/s.exec(entry);
      if (!m) continue;
      const [, sha, stage, path] = m as unknown as [string, string, string, string];
      const slot = byPath.get(path) ?? {};
      if (stage === '2') slot.ours = sha;
      if (stage === '3') slot.theirs = sha;
      byPath.set(path, slot);
    }
    const blob = async (sha: string | undefined): Promise<string | null> =>
      sha === undefined ? null : (await this.git(['cat-file', 'blob', sha])).stdout;
    const out: ConflictFile[] = [];
    for (const [path, s] of byPath)
      out.push({ path, ours: await blob(s.ours), theirs: await blob(s.theirs) });
    return out.sort((a, b) => a.path.localeCompare(b.path));
  }

  /**
   * What changed between two commits, renames detected (-M) and reported as
   * 'R' with oldPath. A null `fromSha` means the empty tree (everything 'A').
   */
  async diffNames(fromSha: string | null, toSha: string | null): Promise<ChangedPath[]> {
    // The empty tree's id depends on the object format, so ask git rather than hard-code the sha1 one.
    const empty = async (): Promise<string> =>
      (await this.git(['hash-object', '-t', 'tree', '--stdin'], { input: '' })).stdout.trim();
    const from = assertRev(fromSha ?? (await empty()));
    const to = assertRev(toSha ?? (await empty()));
    const r = await this.git(['diff', '--name-status', '-z', '-M', '--no-ext-diff', '--no-color', from, to]);
    return parseNameStatus(r.stdout);
  }

  /** Creates annotated tag `name` at `ref` (default HEAD); returns the tagged commit's sha. */
  async tag(
    name: string,
    message: string,
    ref = 'HEAD',
    identity?: Omit<CommitOptions, 'message'>,
  ): Promise<string> {
    await assertRefName('tag', name, 'tags');
    const env = identity ? identityEnv({ ...identity, message: '' }) : {};
    await this.git(['tag', '-a', '-F', '-', name, assertRev(ref)], { input: message || name, env });
    return (await this.git(['rev-parse', `refs/tags/${name}^{commit}`])).stdout.trim();
  }

  /** Deletes a local tag; false when it did not exist. */
  async deleteTag(name: string): Promise<boolean> {
    await assertRefName('tag', name, 'tags');
    return (await this.git(['tag', '-d', name], { allowFailure: true })).code === 0;
  }

  /** A file's UTF-8 text at `ref`, or null when the ref or the path does not exist there. */
  async showFile(ref: string, path: string): Promise<string | null> {
    return (await this.showFileBytes(ref, path))?.toString('utf8') ?? null;
  }

  /** A file's bytes at `ref` (for uploads, which may be binary), or null when absent. */
  async showFileBytes(ref: string, path: string): Promise<Buffer | null> {
    const spec = `${assertRev(ref)}:${path.replace(/^\/+/, '')}`;
    const r = await this.git(['cat-file', 'blob', spec], { allowFailure: true });
    return r.code === 0 ? r.stdoutBytes : null;
  }

  /** Every file path (recursively) in the tree of `ref`, sorted as git sorts them. */
  async listFilesAt(ref: string): Promise<string[]> {
    const r = await this.git(['ls-tree', '-r', '-z', '--name-only', '--full-tree', assertRev(ref)]);
    return r.stdout.split('\0').filter((p) => p !== '');
  }

  /**
   * Every entry of the tree of `ref`, recursively, with its mode, object and size (one
   * `git ls-tree -r -l`): callers decide what they serve from the mode (120000 is a
   * symlink, 160000 a submodule) and the size without reading a blob.
   */
  async listTreeAt(ref: string): Promise<TreeEntry[]> {
    const r = await this.git(['ls-tree', '-r', '-z', '-l', '--full-tree', assertRev(ref)]);
    const entries: TreeEntry[] = [];
    for (const record of r.stdout.split('\0')) {
      // "<mode> SP <type> SP <object> SP+ <size> TAB <path>"; size is "-" for a submodule.
      const m = /^(\d{6}) (\w+) ([0-9a-f]+) +(-|\d+)\t(.+)$/s.exec(record);
      if (!m) continue;
      entries.push({
        mode: m[1]!,
        type: m[2]!,
        object: m[3]!,
        size: m[4] === '-' ? 0 : Number(m[4]),
        path: m[5]!,
      });
    }
    return entries;
  }

  /** A blob's bytes by object id, or null when there is no such blob. */
  async readBlob(object: string): Promise<Buffer | null> {
    if (!/^[0-9a-f]{40,64}$/.test(object)) return null;
    const r = await this.git(['cat-file', 'blob', object], { allowFailure: true });
    return r.code === 0 ? r.stdoutBytes : null;
  }

  private async resolve(ref: string): Promise<string | null> {
    const r = await this.git(['rev-parse', '-q', '--verify', `${ref}^{commit}`], { allowFailure: true });
    return r.code === 0 ? r.stdout.trim() : null;
  }

  /** A best common ancestor of two commits, or null for unrelated histories. */
  private async mergeBase(a: string, b: string): Promise<string | null> {
    const r = await this.git(['merge-base', assertRev(a), assertRev(b)], { allowFailure: true });
    return r.code === 0 ? r.stdout.trim() : null;
  }
}

/** Refuses revisions that git would read as an option. */
function assertRev(rev: string): string {
  if (rev === '' || rev.startsWith('-')) throw invalid('ref', 'Invalid git revision');
  return rev;
}

/**
 * Refs check-ref-format accepted. Its answer depends on the name alone, and every fetch,
 * merge and push checks the branch again: remembering saves a git process each time.
 */
const validRefs = new Set<string>();
const VALID_REFS_KEPT = 1000;

/** Validates a branch or tag name with git's own rules (check-ref-format). */
async function assertRefName(
  field: string,
  name: string,
  namespace: 'heads' | 'tags' = 'heads',
): Promise<void> {
  const ref = `refs/${namespace}/${name}`;
  if (validRefs.has(ref)) return;
  const ok =
    name !== '' &&
    !name.startsWith('-') &&
    (await runGit(tmpdir(), ['check-ref-format', ref], { allowFailure: true })).code === 0;
  if (!ok) throw invalid(field, `Invalid ${namespace === 'heads' ? 'branch' : 'tag'} name: ${name}`);
  if (validRefs.size >= VALID_REFS_KEPT) validRefs.clear();
  validRefs.add(ref);
}
