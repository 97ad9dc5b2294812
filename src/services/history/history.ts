import type { z } from 'zod';
import { workspaceDir } from '../../content/workspace-meta.js';
import { WorkspaceFiles } from '../../content/workspace-files.js';
import type { Actor } from '../../domain/actor.js';
import { normalizePagePath } from '../../domain/paths.js';
import { atLeast, CAN, type Role } from '../../domain/policy.js';
import { AppError, invalid, notFound } from '../../errors.js';
import {
  deletedFiles,
  fileAtCommit,
  type HistoryPosition,
  type PageChange,
  type PageCommit,
  pageHistory,
  resolveCommit,
} from '../../git/history.js';
import { diffTexts } from '../../git/text-diff.js';
import type { Store } from '../../store/database.js';
import * as pagesTable from '../../store/repositories/pages.js';
import { listUsersByEmails } from '../../store/repositories/users.js';
import type { AccessService, WorkspaceAccess } from '../access.js';
import type { deletedPagesInput, pageAtCommitInput, pageDiffInput, pageHistoryInput } from './inputs.js';

export interface HistoryDeps {
  store: Store;
  access: AccessService;
  dataDir: string;
}

/**
 * Who made a commit, as the API shows it: the name git recorded, and the Folio user with
 * the author's email (id and handle) when there is one. The email itself only for admins,
 * as the members list shows emails only to them.
 */
export interface HistoryAuthor {
  name: string;
  user_id?: string;
  handle?: string;
  email?: string;
}

/** One entry of `GET …/history`. */
export interface HistoryEntry {
  commit: string;
  author: HistoryAuthor;
  message: string;
  created_at: string;
  path_at_commit: string;
  change: PageChange;
}

/** Where in the workspace a page's history is read: its repository and the page's current path. */
export interface PageAt extends WorkspaceAccess {
  root: string;
  path: string;
}

/** How far a commit is looked for in a page's history when the page was elsewhere then. */
const SEARCH_CHUNK = 100;
const SEARCH_LIMIT = 50;

/** Whether `path` is a canonical page path (one Folio could serve and restore). */
function isPagePath(path: string): boolean {
  try {
    return normalizePagePath(path) === path;
  } catch {
    return false;
  }
}

const encodeCursor = (p: HistoryPosition) =>
  `${p.rev}.${p.skip}.${Buffer.from(p.path, 'utf8').toString('base64url')}`;

function decodeCursor(cursor: string): HistoryPosition {
  const [rev = '', skip = '', path = ''] = cursor.split('.');
  const decoded = Buffer.from(path, 'base64url').toString('utf8');
  let canonical: string | null = null;
  try {
    canonical = normalizePagePath(decoded);
  } catch {
    canonical = null;
  }
  if (canonical !== decoded || (skip !== '0' && skip !== '1')) {
    throw invalid('cursor', 'cursor is not one this API gave out');
  }
  return { rev, path: decoded, skip: skip === '1' ? 1 : 0 };
}

/**
 * Page history read from the workspace's git repository: the commits that touched a page,
 * its text at a commit, diffs, and the pages deleted from the tree. Readers of the
 * workspace may use all of it; a restricted page's history only admins, like the page.
 */
export function createPageHistory(deps: HistoryDeps) {
  const db = deps.store.db;

  /** Checks read access (404 without it) and the page path (400); 404 for a restricted page below admin. */
  async function locate(actor: Actor, workspace: string, rawPath: string): Promise<PageAt> {
    const access = await deps.access.require(actor, workspace, CAN.read);
    const path = normalizePagePath(rawPath);
    const row = await pagesTable.findByPath(db, access.workspace.id, path);
    if (row?.restricted === 1 && !atLeast(access.role, 'admin')) throw notFound('Page');
    return { ...access, path, root: workspaceDir(deps.dataDir, access.workspace.id) };
  }

  /** The Folio users who authored the commits (id and handle), by email. */
  async function usersByEmail(emails: string[]): Promise<Map<string, { id: string; handle: string }>> {
    const unique = [...new Set(emails.filter((e) => e !== ''))];
    const rows = await listUsersByEmails(db, unique);
    return new Map(rows.map((r) => [r.email, { id: r.id, handle: r.handle }]));
  }

  /** The entries as `role` may see them: authors' emails for admins only. */
  async function present(commits: PageCommit[], role: Role): Promise<HistoryEntry[]> {
    const users = await usersByEmail(commits.map((c) => c.authorEmail));
    const showEmail = atLeast(role, 'admin');
    return commits.map((c) => {
      const user = users.get(c.authorEmail);
      return {
        commit: c.commit,
        author: {
          name: c.authorName,
          ...(user ? { user_id: user.id, handle: user.handle } : {}),
          ...(showEmail ? { email: c.authorEmail } : {}),
        },
        message: c.message,
        created_at: c.createdAt,
        path_at_commit: c.path,
        change: c.change,
      };
    });
  }

  /** The full id of `commit` (400 when it is not a commit id, 404 when the repository has none such). */
  async function commitOf(at: PageAt, commit: string): Promise<string> {
    const sha = await resolveCommit(at.root, commit);
    if (!sha) throw new AppError('NOT_FOUND', 'Commit not found', { details: { commit } });
    return sha;
  }

  /**
   * The page's file text at `sha` and its path then: at its current path, or else where the
   * page's history (renames followed) says it was. 404 when the page had no file at that commit.
   */
  async function revisionAt(at: PageAt, sha: string): Promise<{ path: string; text: string }> {
    const direct = await fileAtCommit(at.root, sha, at.path);
    if (direct !== null) return { path: at.path, text: direct };
    let position: HistoryPosition | null = { rev: 'HEAD', path: at.path, skip: 0 };
    for (let i = 0; position && i < SEARCH_LIMIT; i++) {
      const { commits, next } = await pageHistory(at.root, position, SEARCH_CHUNK);
      const entry = commits.find((c) => c.commit === sha);
      if (entry) {
        const text = entry.change === 'deleted' ? null : await fileAtCommit(at.root, sha, entry.path);
        if (text !== null) return { path: entry.path, text };
        break;
      }
      position = next;
    }
    throw new AppError('NOT_FOUND', 'The page has no version at that commit', {
      details: { commit: sha, page: at.path },
    });
  }

  return {
    locate,
    commitOf,
    revisionAt,

    /** `GET …/history`: the commits that touched the page, newest first, `limit` at a time. */
    async list(actor: Actor, workspace: string, input: z.infer<typeof pageHistoryInput>) {
      const at = await locate(actor, workspace, input.page);
      // HEAD, not its sha: one git call answers the first page (the cursor names commits).
      const from = input.cursor
        ? decodeCursor(input.cursor)
        : { rev: 'HEAD', path: at.path, skip: 0 as const };
      const { commits, next, found } = await pageHistory(at.root, from, input.limit);
      if (!found && input.cursor) throw invalid('cursor', 'cursor is not one this API gave out');
      // A path git never saw and nothing is at: no such page (a page not committed yet has none).
      if (commits.length === 0 && !input.cursor && !(await new WorkspaceFiles(at.root).exists(at.path))) {
        throw notFound('Page');
      }
      return { data: await present(commits, at.role), next_cursor: next ? encodeCursor(next) : null };
    },

    /** `GET …/history/:commit`: the page's Markdown (frontmatter and body) at a commit. */
    async at(actor: Actor, workspace: string, commit: string, input: z.infer<typeof pageAtCommitInput>) {
      const at = await locate(actor, workspace, input.page);
      const sha = await commitOf(at, commit);
      const revision = await revisionAt(at, sha);
      return { commit: sha, page: at.path, path_at_commit: revision.path, content: revision.text };
    },

    /** `GET …/history/diff`: a unified diff and its hunks, from one version of the page to another or to now. */
    async diff(actor: Actor, workspace: string, input: z.infer<typeof pageDiffInput>) {
      const at = await locate(actor, workspace, input.page);
      const fromSha = await commitOf(at, input.from);
      const older = await revisionAt(at, fromSha);
      let newer: { path: string; text: string };
      let to: string;
      if (input.to === 'current') {
        const text = await new WorkspaceFiles(at.root).readRaw(at.path);
        if (text === null) throw notFound('Page');
        newer = { path: at.path, text: text.toString('utf8') };
        to = 'current';
      } else {
        to = await commitOf(at, input.to);
        newer = await revisionAt(at, to);
      }
      const diff = await diffTexts(older.text, newer.text, older.path, newer.path);
      return { page: at.path, from: fromSha, to, path_from: older.path, path_to: newer.path, ...diff };
    },

    /**
     * `GET …/history/deleted`: pages deleted from the tree and not back at their path, newest
     * first, with the commit that deleted them and `restore_commit`, the last one holding the file.
     */
    async deleted(actor: Actor, workspace: string, input: z.infer<typeof deletedPagesInput>) {
      const access = await deps.access.require(actor, workspace, CAN.read);
      const root = workspaceDir(deps.dataDir, access.workspace.id);
      const [rev, skipText] = input.cursor
        ? input.cursor.split('.')
        : [await resolveCommit(root, 'HEAD'), '0'];
      if (!rev) return { data: [], next_cursor: null };
      if (!(await resolveCommit(root, rev))) throw invalid('cursor', 'cursor is not one this API gave out');
      const skip = Number(skipText);
      const files = new WorkspaceFiles(root);
      const seen = new Set<string>();
      const found: Array<PageCommit & { restore: string }> = [];
      let read = skip;
      let more = true;
      // Whole deletion commits at a time, so a page may hold a few more than `limit`.
      while (found.length < input.limit && more) {
        const chunk = await deletedFiles(root, rev, read, input.limit);
        read += input.limit;
        more = chunk.more;
        for (const d of chunk.deleted) {
          // Only files that are pages (a remote may have held others), and only once.
          if (seen.has(d.path) || !d.parent || !isPagePath(d.path) || (await files.exists(d.path))) continue;
          seen.add(d.path);
          found.push({ ...d, change: 'deleted', restore: d.parent });
        }
      }
      const entries = await present(found, access.role);
      return {
        data: entries.map((e, i) => ({
          ...e,
          path: e.path_at_commit,
          restore_commit: found[i]?.restore ?? null,
        })),
        next_cursor: more ? `${rev}.${read}` : null,
      };
    },
  };
}

export type PageHistoryService = ReturnType<typeof createPageHistory>;
