import { api } from '../api/client';
import type { List, Page } from '../api/types';

/** One commit of a page's history (GET /api/v1/workspaces/:id/history). */
export interface Revision {
  commit: string;
  /** `email` only for the workspace's admins. */
  author: { name: string; user_id?: string; handle?: string; email?: string };
  message: string;
  created_at: string;
  path_at_commit: string;
  change: 'created' | 'updated' | 'moved' | 'deleted';
}

export interface DiffLine {
  kind: 'context' | 'added' | 'removed';
  old_line: number | null;
  new_line: number | null;
  text: string;
}

export interface PageDiff {
  from: string;
  to: string;
  path_from: string;
  path_to: string;
  unified: string;
  hunks: Array<{ old_start: number; new_start: number; lines: DiffLine[] }>;
}

const base = (workspaceId: string) => `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/history`;

/** The page-history calls the editor's history panel makes. */
export const historyApi = {
  list: (workspaceId: string, page: string, cursor: string | null) =>
    api<List<Revision>>(
      'GET',
      `${base(workspaceId)}?page=${encodeURIComponent(page)}&limit=20${cursor ? `&cursor=${cursor}` : ''}`,
    ),

  /** How the page changed from `commit` to its current text. */
  diffToCurrent: (workspaceId: string, page: string, commit: string) =>
    api<PageDiff>(
      'GET',
      `${base(workspaceId)}/diff?page=${encodeURIComponent(page)}&from=${commit}&to=current`,
    ),

  restore: (workspaceId: string, page: string, commit: string, lastKnownHash: string | undefined) =>
    api<{ page: Page; restored_from: string; created: boolean }>('POST', `${base(workspaceId)}/restore`, {
      page,
      commit,
      ...(lastKnownHash ? { lastKnownHash } : {}),
    }),
};
