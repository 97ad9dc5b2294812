import type { Store } from '../store/database.js';
import type { PlainTextWorker } from './documents.js';
import { createPgTsvectorIndex } from './pg-tsvector.js';
import type { SearchIndex } from './search-index.js';
import { createSqliteFtsIndex } from './sqlite-fts.js';

export { SEARCH_TOTAL_CAP } from './search-index.js';
export type { PlainTextWorker } from './documents.js';
export type { SearchDocument, SearchHit, SearchIndex, SearchQuery } from './search-index.js';

/**
 * The search index for the store's database: FTS5 on SQLite, tsvector on PostgreSQL.
 * Call `init()` once after the store is migrated and before the first write. Long page
 * bodies are reduced to plain text by `plainText` (the render workers) when given.
 */
export function createSearchIndex(store: Store, plainText?: PlainTextWorker): SearchIndex {
  return store.dialect === 'postgres'
    ? createPgTsvectorIndex(store, plainText)
    : createSqliteFtsIndex(store, plainText);
}
