/**
 * Page history: the commits that touched a page (renames followed), its text and diffs at
 * any commit, the pages deleted from the tree, and restoring a past version as a new save.
 */
import type { Store } from '../../store/database.js';
import type { AccessService } from '../access.js';
import type { PagesService } from '../pages/pages.js';
import { createPageHistory } from './history.js';
import { createHistoryRestore } from './restore.js';

export {
  commitParams,
  deletedPagesInput,
  pageAtCommitInput,
  pageDiffInput,
  pageHistoryInput,
  restorePageInput,
} from './inputs.js';

/** The history service: reads for readers of the workspace, `restore` for editors. */
export function createHistory(deps: {
  store: Store;
  access: AccessService;
  pages: PagesService;
  dataDir: string;
}) {
  const history = createPageHistory(deps);
  return {
    list: history.list,
    at: history.at,
    diff: history.diff,
    deleted: history.deleted,
    restore: createHistoryRestore({ access: deps.access, pages: deps.pages, history }),
  };
}

export type HistoryService = ReturnType<typeof createHistory>;
