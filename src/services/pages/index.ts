/**
 * Pages: the Markdown files of a workspace and their index rows. Reading and writing
 * pages, moves (and finishing a move a crash interrupted), the tree and its order, the
 * trash, uploads, templates, search, reconciling the index with the files, and rebuild.
 */
export { createPageDiscovery } from './discovery.js';
export { createMoveRecovery } from './move-recovery.js';
export {
  type CreatePageInput,
  createPageFields,
  createPageInput,
  movePageAliasInput,
  movePageInput,
  type UpdatePageInput,
  updatePageFields,
  updatePageInput,
} from './page-inputs.js';
export { createPages } from './pages.js';
export { createRebuilder } from './rebuild.js';
export { createReconciler } from './reconcile.js';
export { createSearchService, searchInput } from './search.js';
export { createTemplates } from './templates.js';
export { createPageTrash } from './trash.js';
export { reorderInput } from './tree.js';
export { createUploads, fromUrlInput, type IncomingFile, MAX_UPLOAD_BYTES } from './uploads.js';
export { createPagesById, type PagesByIdService } from './by-id.js';
export { createPageByIdInput, listPagesByIdInput, updatePageByIdInput } from './by-id-inputs.js';
export { createOlderSearch, olderSearchInput } from './search-older.js';
