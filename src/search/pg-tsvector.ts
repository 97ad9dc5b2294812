/**
 * The search index on PostgreSQL: a weighted tsvector ranked with ts_rank_cd and
 * highlighted with ts_headline. The column, its index and the ranking query live in
 * src/store/search/pg-tsvector.ts; this file turns documents into rows and matches into
 * results. The query language is the same as SQLite's: every term required, the last one
 * as a prefix.
 */
import { inBatches } from '../store/batches.js';
import type { Store } from '../store/database.js';
import {
  deleteDocumentRows,
  deleteWorkspaceDocumentRows,
  upsertDocumentRows,
} from '../store/search/documents.js';
import { initPgTsvector, rankTsvectorMatches } from '../store/search/pg-tsvector.js';
import { chooseSnippet, documentRow, documentRows, type PlainTextWorker } from './documents.js';
import { hasMark, markSnippet, queryTerms } from './query-text.js';
import { SEARCH_TOTAL_CAP, type SearchIndex, type SearchQuery } from './search-index.js';

/** The tsvector implementation of SearchIndex; see src/store/search/pg-tsvector.ts for its layout. */
export function createPgTsvectorIndex(store: Store, plainText?: PlainTextWorker): SearchIndex {
  const db = store.db;

  return {
    async init() {
      await initPgTsvector(db);
    },

    async upsert(trx, doc) {
      await upsertDocumentRows(trx, [await documentRow(doc, plainText)]);
    },

    // The vector is a generated column: PostgreSQL computes it for every row written.
    async upsertMany(trx, docs) {
      await upsertDocumentRows(trx, await documentRows(docs, plainText));
    },

    async remove(trx, pageId) {
      await deleteDocumentRows(trx, [pageId]);
    },

    async removeMany(trx, pageIds) {
      for (const batch of inBatches(pageIds)) await deleteDocumentRows(trx, batch);
    },

    async removeWorkspace(trx, workspaceId) {
      await deleteWorkspaceDocumentRows(trx, workspaceId);
    },

    async query(query: SearchQuery) {
      const terms = queryTerms(query.q);
      if (terms.length === 0) return { total: 0, results: [] };
      const rows = await rankTsvectorMatches(db, {
        terms,
        workspaceId: query.workspaceId,
        publishedOnly: query.publishedOnly,
        limit: query.limit,
        totalCap: SEARCH_TOTAL_CAP,
      });
      return {
        total: Number(rows[0]?.total ?? 0),
        results: rows.map((r) => ({
          page_id: r.page_id,
          path: r.path,
          title: r.title,
          score: Number(Number(r.score).toPrecision(6)),
          snippet: markSnippet(chooseSnippet([r.body_snippet, r.description_snippet], hasMark)),
        })),
      };
    },
  };
}
