/**
 * Reading a workspace repository's past: the commits that touched one page (following
 * renames), a file's text at a commit, and the pages deleted from the tree. Read-only:
 * nothing here changes a ref, the index or the working tree, so callers need no lock.
 */
import { GitError, runGit } from './git.js';
import { isPagePath } from '../domain/page-extensions.js';

/** A commit id as a client may give it: 7 to 40 hex digits. */
export const COMMIT_ID_RE = /^[0-9a-f]{7,40}$/i;

/** What a commit did to the followed page. */
export type PageChange = 'created' | 'updated' | 'moved' | 'deleted';

/** One commit of a page's history, as git recorded it. */
export interface PageCommit {
  commit: string;
  /** The first parent, or null for a root commit. */
  parent: string | null;
  authorName: string;
  authorEmail: string;
  /** The author date, ISO 8601. */
  createdAt: string;
  message: string;
  /** The page's path in this commit (for a deletion, the path it was deleted from). */
  path: string;
  change: PageChange;
  /** For a move: where the page was before this commit. */
  movedFrom?: string;
}

/** Where a walk of a page's history starts: at `rev`, with the page at `path`, skipping `skip` commits. */
export interface HistoryPosition {
  rev: string;
  path: string;
  skip: 0 | 1;
}

/** -c options for every read here: paths printed as they are (Folio's page paths hold no control characters). */
const READ_ARGS = ['-c', 'core.quotePath=false'];
const RECORD = '\x1e';
const FIELD = '\x1f';
const LOG_FORMAT = `--format=${RECORD}%H${FIELD}%P${FIELD}%an${FIELD}%ae${FIELD}%aI${FIELD}%B${FIELD}`;

/**
 * The full id of `commit` when it names a commit of the repository, else null. `commit`
 * must already match COMMIT_ID_RE; `root` without any commit answers null.
 */
export async function resolveCommit(root: string, commit: string): Promise<string | null> {
  if (!COMMIT_ID_RE.test(commit) && commit !== 'HEAD') return null;
  const r = await runGit(root, ['rev-parse', '-q', '--verify', `${commit}^{commit}`], { allowFailure: true });
  return r.code === 0 ? r.stdout.trim() : null;
}

/** The text of the file at `path` in `commit`, or null when the commit has no such file. */
export async function fileAtCommit(root: string, commit: string, path: string): Promise<string | null> {
  const r = await runGit(root, [...READ_ARGS, 'cat-file', 'blob', `${commit}:${path}`], {
    allowFailure: true,
  });
  return r.code === 0 ? r.stdout : null;
}

/**
 * Where a Folio move commit (`docs: move <from> to <to>`, one line per change in a batch)
 * says the page now at `to` came from, or null. Used when git's own rename detection
 * missed the move (a tiny page, or links rewritten so much the texts no longer look alike).
 */
export function folioMoveSource(message: string, to: string): string | null {
  const prefix = 'docs: move ';
  const suffix = ` to ${to}`;
  for (const raw of message.split('\n')) {
    const line = raw.replace(/ \(\+\d+ more\)$/, '').trim();
    if (line.startsWith(prefix) && line.endsWith(suffix)) {
      const from = line.slice(prefix.length, line.length - suffix.length);
      if (from !== '' && from !== to && !from.includes(' to ')) return from;
    }
  }
  return null;
}

interface RawEntry {
  commit: string;
  parent: string | null;
  authorName: string;
  authorEmail: string;
  createdAt: string;
  message: string;
  status: Array<{ code: string; paths: string[] }>;
}

function parseLog(stdout: string): RawEntry[] {
  const entries: RawEntry[] = [];
  for (const record of stdout.split(RECORD).slice(1)) {
    const [
      commit = '',
      parents = '',
      authorName = '',
      authorEmail = '',
      createdAt = '',
      message = '',
      rest = '',
    ] = record.split(FIELD);
    if (!/^[0-9a-f]{40}$/.test(commit)) continue;
    const status = rest
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const [code = '', ...paths] = line.split('\t');
        return { code, paths };
      });
    entries.push({
      commit,
      parent: parents.split(' ')[0] || null,
      authorName,
      authorEmail,
      createdAt,
      message: message.trim(),
      status,
    });
  }
  return entries;
}

/** Reads what `raw` did to the page at `path` (its path in that commit). */
function classify(
  raw: RawEntry,
  path: string,
): Omit<PageCommit, 'commit' | 'parent' | 'authorName' | 'authorEmail' | 'createdAt' | 'message'> {
  const line = raw.status.find((s) => s.paths[s.paths.length - 1] === path) ?? raw.status[0];
  const code = line?.code[0];
  if (line && code === 'R' && line.paths.length === 2) {
    return { path: line.paths[1] ?? path, change: 'moved', movedFrom: line.paths[0] ?? path };
  }
  const at = line?.paths[line.paths.length - 1] ?? path;
  if (code === 'D') return { path: at, change: 'deleted' };
  if (code === 'A' || code === 'C') {
    const from = folioMoveSource(raw.message, at);
    return from ? { path: at, change: 'moved', movedFrom: from } : { path: at, change: 'created' };
  }
  // M, T, or a merge that resolved the page (git prints no status line for it).
  return { path: at, change: 'updated' };
}

/**
 * Up to `limit` commits that touched the page, newest first, starting at `from`. Git follows
 * renames it detects (`--follow`); a page created by a Folio move commit is followed to the
 * path the move names. Git walks only as far as the page needs: `-n` bounds each call.
 * Answers the commits, where the next page of history starts (null at its beginning), and
 * `found: false` when `from.rev` names no commit.
 */
export async function pageHistory(
  root: string,
  from: HistoryPosition,
  limit: number,
): Promise<{ commits: PageCommit[]; next: HistoryPosition | null; found: boolean }> {
  const commits: PageCommit[] = [];
  let position: HistoryPosition | null = from;
  let first = true;
  while (position && commits.length < limit) {
    const want = limit - commits.length + 1;
    // One git call per page of history: a start that names no commit (`HEAD` of a repository
    // without commits yet, a cursor from elsewhere) fails here rather than in a call before.
    const r = await runGit(
      root,
      [
        ...READ_ARGS,
        'log',
        '--follow',
        '-M',
        '--name-status',
        LOG_FORMAT,
        `-n${want + position.skip}`,
        position.rev,
        '--',
        position.path,
      ],
      { allowFailure: true },
    );
    if (r.code !== 0) {
      if (first && /unknown revision|bad revision|does not have any commits|bad object/i.test(r.stderr)) {
        return { commits: [], next: null, found: false };
      }
      throw new GitError(`git log ${position.rev}`, r.code, r.stderr);
    }
    first = false;
    const raws = parseLog(r.stdout).slice(position.skip);
    let next: HistoryPosition | null = null;
    let path = position.path;
    for (const raw of raws) {
      const entry: PageCommit = {
        commit: raw.commit,
        parent: raw.parent,
        authorName: raw.authorName,
        authorEmail: raw.authorEmail,
        createdAt: raw.createdAt,
        message: raw.message,
        ...classify(raw, path),
      };
      if (commits.length === limit) {
        // One more than asked exists: the page continues after the last one listed.
        next = after(commits[commits.length - 1] as PageCommit);
        break;
      }
      commits.push(entry);
      path = entry.movedFrom ?? entry.path;
      // A move git did not see as a rename: the older history is at the path the commit names.
      if (entry.change === 'moved' && raw.status[0]?.code[0] !== 'R') {
        next = entry.parent && entry.movedFrom ? { rev: entry.parent, path: entry.movedFrom, skip: 0 } : null;
        break;
      }
    }
    position = next;
    if (raws.length < want && !next) break;
  }
  return { commits, next: commits.length === limit ? position : null, found: true };
}

/** Where the history continues after `entry`. */
function after(entry: PageCommit): HistoryPosition | null {
  if (entry.change === 'moved' && entry.movedFrom && entry.parent) {
    // Whether git saw the rename or not, the older commits are at the old path.
    return { rev: entry.parent, path: entry.movedFrom, skip: 0 };
  }
  return { rev: entry.commit, path: entry.path, skip: 1 };
}

/** A page deleted from the tree, as the commit that deleted it says. */
export interface DeletedPage {
  path: string;
  commit: string;
  parent: string | null;
  authorName: string;
  authorEmail: string;
  createdAt: string;
  message: string;
}

/**
 * Markdown files deleted by the commits reachable from `rev`, newest deletion first,
 * reading `skip` .. `skip + commits` deletion commits. Moves (renames git detects, and
 * Folio move commits) are not deletions. Whether a path is back in the tree is the caller's
 * business. Answers the deletions and whether more deletion commits exist.
 */
export async function deletedFiles(
  root: string,
  rev: string,
  skip: number,
  commits: number,
): Promise<{ deleted: DeletedPage[]; more: boolean }> {
  const r = await runGit(root, [
    ...READ_ARGS,
    'log',
    '-M',
    '--diff-filter=D',
    '--name-status',
    LOG_FORMAT,
    `--skip=${skip}`,
    `-n${commits + 1}`,
    rev,
    '--',
    '*.md',
    '*.mdx',
  ]);
  const raws = parseLog(r.stdout);
  const deleted: DeletedPage[] = [];
  for (const raw of raws.slice(0, commits)) {
    for (const s of raw.status) {
      const path = s.paths[0];
      if (s.code !== 'D' || path === undefined || !isPagePath(path)) continue;
      if (raw.message.split('\n').some((l) => l.trim().startsWith(`docs: move ${path} to `))) continue;
      const { status: _status, ...commit } = raw;
      deleted.push({ ...commit, path });
    }
  }
  return { deleted, more: raws.length > commits };
}
