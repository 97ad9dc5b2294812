import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/** What the index knows of a page: enough to rank, filter and show a result. */
export interface SearchDocument {
  page_id: string;
  workspace_id: string;
  path: string;
  title: string;
  description: string;
  tags: string[];
  body: string;
  /** The body as a reader sees it, when already derived (see `readerTexts`); else derived when indexed. */
  plainText?: string;
  status: string;
  /** Strict frontmatter mode keeps restricted pages out of search. */
  restricted: boolean;
}

export interface SearchHit {
  page_id: string;
  path: string;
  title: string;
  score: number;
  /** HTML-escaped text with matches wrapped in <mark>…</mark>. */
  snippet: string;
}

/**
 * Matches are counted up to this many: a query matching more reports this number as its
 * `total`, read as "this many or more". Counting every match of a word found on nearly
 * every page of a large workspace is work over thousands of rows that no reader pages
 * through. Ranking still weighs every match, so the best results do not depend on the cap.
 */
export const SEARCH_TOTAL_CAP = 1000;

export interface SearchQuery {
  workspaceId: string;
  q: string;
  limit: number;
  /** Only `published` pages (the public site's search box). */
  publishedOnly?: boolean;
}

/**
 * The full-text index behind one interface: SQLite FTS5 or PostgreSQL
 * tsvector. Writes take the caller's transaction so the index changes in the
 * same transaction as the page rows.
 */
export interface SearchIndex {
  /** Creates the dialect's own structures (virtual table or column and index); idempotent. */
  init(): Promise<void>;
  upsert(trx: Kysely<Database>, doc: SearchDocument): Promise<void>;
  /** Inserts or replaces many documents with a few statements per batch, not a few per document. */
  upsertMany(trx: Kysely<Database>, docs: readonly SearchDocument[]): Promise<void>;
  remove(trx: Kysely<Database>, pageId: string): Promise<void>;
  removeMany(trx: Kysely<Database>, pageIds: readonly string[]): Promise<void>;
  removeWorkspace(trx: Kysely<Database>, workspaceId: string): Promise<void>;
  /** Best matches first, at most `limit`; `total` counts matches up to SEARCH_TOTAL_CAP. */
  query(query: SearchQuery): Promise<{ total: number; results: SearchHit[] }>;
}
