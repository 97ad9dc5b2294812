/**
 * The search index on SQLite: an FTS5 virtual table ranked with bm25 and highlighted with
 * snippet(). The table's layout and every statement live in src/store/search/sqlite-fts.ts;
 * this file turns documents into rows and matches into results.
 */
import { inBatches } from '../store/batches.js';
import type { Store } from '../store/database.js';
import {
  countFtsMatches,
  deleteFtsDocuments,
  deleteWorkspaceFtsDocuments,
  ftsRestSnippets,
  ftsSnippets,
  initSqliteFts,
  rankFtsMatches,
  upsertFtsDocuments,
} from '../store/search/sqlite-fts.js';
import { chooseSnippet, documentRow, documentRows, type PlainTextWorker } from './documents.js';
import { ftsMatchExpression, hasMark, markSnippet, queryTerms } from './query-text.js';
import { SEARCH_TOTAL_CAP, type SearchHit, type SearchIndex, type SearchQuery } from './search-index.js';

/** The FTS5 implementation of SearchIndex; see src/store/search/sqlite-fts.ts for its layout. */
export function createSqliteFtsIndex(store: Store, plainText?: PlainTextWorker): SearchIndex {
  const db = store.db;

  /**
   * Snippets for the page of results: the body's head and the description for every row,
   * and the rest of the body only for rows whose match is not in the head.
   */
  async function snippets(match: string, rowids: number[]): Promise<Map<number, string>> {
    const rows = await ftsSnippets(db, match, rowids);
    const deeper = rows.filter((r) => r.has_rest && !hasMark(r.head)).map((r) => r.rid);
    const rest = await ftsRestSnippets(db, match, deeper);
    return new Map(
      rows.map((r) => [r.rid, markSnippet(chooseSnippet([r.head, rest.get(r.rid), r.description], hasMark))]),
    );
  }

  return {
    async init() {
      await initSqliteFts(db);
    },

    async upsert(trx, doc) {
      await upsertFtsDocuments(trx, [await documentRow(doc, plainText)]);
    },

    async upsertMany(trx, docs) {
      for (const batch of inBatches(await documentRows(docs, plainText)))
        await upsertFtsDocuments(trx, batch);
    },

    async remove(trx, pageId) {
      await deleteFtsDocuments(trx, [pageId]);
    },

    async removeMany(trx, pageIds) {
      for (const batch of inBatches(pageIds)) await deleteFtsDocuments(trx, batch);
    },

    async removeWorkspace(trx, workspaceId) {
      await deleteWorkspaceFtsDocuments(trx, workspaceId);
    },

    async query(query: SearchQuery) {
      const terms = queryTerms(query.q);
      if (terms.length === 0) return { total: 0, results: [] };
      const filter = {
        match: ftsMatchExpression(terms),
        workspaceId: query.workspaceId,
        publishedOnly: query.publishedOnly,
      };
      // The count stops at the cap, and a page of results that is not full counts itself;
      // snippet() waits for a query of its own so it runs for the page of results only.
      const rows = await rankFtsMatches(db, filter, query.limit);
      const total =
        rows.length < query.limit ? rows.length : await countFtsMatches(db, filter, SEARCH_TOTAL_CAP);
      const marked = await snippets(
        filter.match,
        rows.map((r) => r.rid),
      );
      const results: SearchHit[] = rows.map((r) => ({
        page_id: r.page_id,
        path: r.path,
        title: r.title,
        score: roundScore(r.score),
        snippet: marked.get(r.rid) ?? '',
      }));
      return { total, results };
    },
  };
}

/** Scores are relative; six significant digits are plenty and keep responses tidy. */
const roundScore = (score: number): number => Number(score.toPrecision(6));
