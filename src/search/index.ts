import type { Store } from '../store/database.js';
import { createPgTsvectorIndex } from './pg-tsvector.js';
import type { SearchIndex } from './search-index.js';
import { createSqliteFtsIndex } from './sqlite-fts.js';

export { SEARCH_TOTAL_CAP } from './search-index.js';
export type { SearchDocument, SearchHit, SearchIndex, SearchQuery } from './search-index.js';

/**
 * The search index for the store's database: FTS5 on SQLite, tsvector on PostgreSQL.
 * Call `init()` once after the store is migrated and before the first write.
 */
export function createSearchIndex(store: Store): SearchIndex {
  return store.dialect === 'postgres' ? createPgTsvectorIndex(store) : createSqliteFtsIndex(store);
}
