import { api } from '../api/client';
import type { List } from '../api/types';
import type { DiffLine, PageDiff, Revision } from '../../../src/contract/history';
import type { Page } from '../../../src/contract/pages';

export type { DiffLine, PageDiff, Revision };

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
