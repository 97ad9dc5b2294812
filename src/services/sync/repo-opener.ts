import { appendFile, readdir, readFile, readlink, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { TEMP_PREFIX } from '../../content/atomic-write.js';
import { workspaceDir } from '../../content/workspace-meta.js';
import { runGit } from '../../git/git.js';
import { FOLIO_IDENTITY, WorkspaceRepo } from '../../git/repository.js';
import type { Logger } from '../../logger.js';

export { FOLIO_IDENTITY } from '../../git/repository.js';

/** The workspace fields the git layer needs. */
export interface GitWorkspace {
  id: string;
  git_branch: string;
  git_remote: string | null;
}

/** Folio's folder in a tree (trash, conflict copies): never committed, never taken from a remote. */
export const FOLIO_FOLDER = '.folio';

/**
 * Keeps git's hands off Folio's own files: an atomic write's temp file (`.folio-tmp-*`) left
 * by a crash, and the `.folio/` folder, must never be committed by `commitAll`, even when a
 * pulled `.gitignore` drops its `.folio/` line. `info/exclude` is local to this clone, so
 * the user's `.gitignore` stays theirs.
 */
async function excludeFolioFiles(root: string): Promise<void> {
  const file = path.join(root, '.git', 'info', 'exclude');
  const current = await readFile(file, 'utf8').catch(() => '');
  const lines = current.split('\n');
  const missing = [`${TEMP_PREFIX}*`, `/${FOLIO_FOLDER}/`].filter((p) => !lines.includes(p));
  if (missing.length === 0) return;
  await appendFile(file, `${current === '' || current.endsWith('\n') ? '' : '\n'}${missing.join('\n')}\n`);
}

/**
 * Deletes a `.folio/` folder that git tracks (pushed by an older Folio, which kept its
 * metadata there, or by anyone with push access) in a commit of its own, so the remote's
 * next commits no longer carry it. Answers the new sha, or null when nothing was tracked.
 */
export function purgeFolioFolder(repo: WorkspaceRepo): Promise<string | null> {
  return repo.removeTracked(FOLIO_FOLDER, {
    authorName: FOLIO_IDENTITY.name,
    authorEmail: FOLIO_IDENTITY.email,
    message: 'docs: remove Folio metadata from the repository',
  });
}

/**
 * Points HEAD at `branch`: renames the checked-out branch when the workspace's
 * branch was changed, or re-targets an unborn HEAD. Commits then land on the
 * branch that is pushed.
 */
async function checkoutBranch(root: string, branch: string): Promise<void> {
  const head = await runGit(root, ['symbolic-ref', '-q', '--short', 'HEAD'], { allowFailure: true });
  const current = head.stdout.trim();
  if (current === branch) return;
  const born = await runGit(root, ['rev-parse', '-q', '--verify', 'HEAD'], { allowFailure: true });
  if (born.code === 0) await runGit(root, ['branch', '-M', branch]);
  else await runGit(root, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
}

/** Lock files a git command holds while it changes the index, HEAD or the branch, and leaves when it dies. */
const lockFiles = (branch: string): string[] => ['index.lock', 'HEAD.lock', `refs/heads/${branch}.lock`];

/**
 * Whether a process still runs inside `root` (git runs with the working tree as
 * its current directory). Read from /proc; where there is none, a lock is only
 * taken for stale once it is older than STALE_LOCK_AGE_MS.
 */
async function processInside(root: string): Promise<boolean | null> {
  let pids: string[];
  try {
    pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name) && name !== String(process.pid));
  } catch {
    return null;
  }
  for (const pid of pids) {
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => null);
    if (cwd !== null && (cwd === root || cwd.startsWith(`${root}${path.sep}`))) return true;
  }
  return false;
}

const STALE_LOCK_AGE_MS = 10 * 60_000;

/**
 * Removes the lock files a git command left when it died with the server, so
 * commits do not fail forever after a crash. Only called on the first use of a
 * workspace by this process, under its workspace lock: no git command of this
 * instance (or, on PostgreSQL, of another) can be holding them then. A git
 * still running in the tree, orphaned by the crash, keeps its lock.
 */
async function removeStaleLocks(root: string, branch: string, logger: Logger | undefined): Promise<void> {
  for (const name of lockFiles(branch)) {
    const file = path.join(root, '.git', name);
    const info = await stat(file).catch(() => null);
    if (!info) continue;
    const running = await processInside(root);
    const age = Date.now() - info.mtimeMs;
    if (running === true || (running === null && age < STALE_LOCK_AGE_MS)) continue;
    await unlink(file).catch(() => undefined);
    logger?.warn(
      { workspace_id: path.basename(root), lock: name, age_ms: Math.round(age) },
      'removed a stale git lock left by a process that died',
    );
  }
}

/**
 * Opens workspace repositories ready for sync work: initialised, temp files
 * excluded, on the workspace's branch, origin pointing at its remote. The setup
 * runs once per process and configuration, since it costs several git calls.
 * Callers hold the workspace lock. The first open of a workspace removes
 * git lock files left by a crash (removeStaleLocks). Fetches and pushes are stopped after
 * `networkTimeoutMs` (GIT_NETWORK_TIMEOUT).
 */
export function createRepoOpener(dataDir: string, options: { networkTimeoutMs: number; logger?: Logger }) {
  const ready = new Map<string, string>();
  const checked = new Set<string>();
  return {
    async open(ws: GitWorkspace): Promise<WorkspaceRepo> {
      const repo = new WorkspaceRepo(workspaceDir(dataDir, ws.id), { timeoutMs: options.networkTimeoutMs });
      const key = `${ws.git_branch}\n${ws.git_remote ?? ''}`;
      if (ready.get(ws.id) === key) return repo;
      if (!checked.has(ws.id)) {
        await removeStaleLocks(repo.root, ws.git_branch, options.logger);
        checked.add(ws.id);
      }
      await repo.init(ws.git_branch);
      await excludeFolioFiles(repo.root);
      await checkoutBranch(repo.root, ws.git_branch);
      await repo.setRemote(ws.git_remote);
      // init's `.folio/` line goes in with Folio's first commit rather than riding along with a user's later.
      const ignore = await runGit(repo.root, ['status', '--porcelain', '--', '.gitignore']);
      if (ignore.stdout.trim() !== '') {
        await repo.commitPaths(['.gitignore'], {
          authorName: FOLIO_IDENTITY.name,
          authorEmail: FOLIO_IDENTITY.email,
          message: 'docs: keep Folio metadata out of git',
        });
      }
      await purgeFolioFolder(repo);
      ready.set(ws.id, key);
      return repo;
    },

    /**
     * The workspace repository as it is, not set up (no lock needed to read it), or null
     * when there is none yet.
     */
    async existing(ws: GitWorkspace): Promise<WorkspaceRepo | null> {
      const repo = new WorkspaceRepo(workspaceDir(dataDir, ws.id), { timeoutMs: options.networkTimeoutMs });
      return (await repo.isRepository()) ? repo : null;
    },

    /** The sha a ref points at in the workspace repository, or null. */
    async resolve(ws: GitWorkspace, ref: string): Promise<string | null> {
      const r = await runGit(
        workspaceDir(dataDir, ws.id),
        ['rev-parse', '-q', '--verify', `${ref}^{commit}`],
        {
          allowFailure: true,
        },
      );
      return r.code === 0 ? r.stdout.trim() : null;
    },
  };
}

export type RepoOpener = ReturnType<typeof createRepoOpener>;
