/**
 * The SQLite-only structures of the search index and their statements: an FTS5 virtual
 * table ranked with bm25 and highlighted with snippet().
 *
 * Layout. Migration 0003 creates the portable `search_documents` table (one row per page,
 * with the fields results are filtered on). {@link initSqliteFts} adds the SQLite-only
 * parts, since migrations hold no dialect branches:
 *   - `search_fts(title, tags, description, body, body_rest)`, an FTS5 table storing its
 *     own copy of the text (snippet() needs it; external content keyed by an implicit rowid
 *     would break the day a VACUUM renumbers rowids). The body is split after about
 *     BODY_HEAD characters: snippet() tokenizes the whole column it highlights, so a long
 *     page made each result cost milliseconds; the head answers most snippets and the rest
 *     is highlighted only when the match lies beyond it;
 *   - `search_documents.fts_rowid` with a unique index, mapping each page to its FTS row so
 *     updates and deletes reach it by rowid instead of scanning the FTS table, and a
 *     covering index that answers the join of every query without reading table rows.
 * When the FTS table is missing or laid out differently (first start, an older layout, a
 * database restored without it) it is recreated and filled from `search_documents`, so the
 * index never needs the files to come back.
 *
 * The porter stemmer makes "installing" find "install"; bm25 weighs title 10, tags 5,
 * description 2 and body 1.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { MARK_END, MARK_START } from '../../search/query-text.js';
import type { Database, SearchDocumentsTable } from '../schema.js';
import type { Queryable } from '../repositories/queryable.js';
import { findDocumentRow, upsertDocumentRows } from './documents.js';

/** The FTS table's columns, in order; init recreates a table whose columns differ. */
const FTS_COLUMNS = ['title', 'tags', 'description', 'body', 'body_rest'] as const;
/** bm25 column weights in that order: title 10, tags 5, description 2, body 1. */
const BM25_WEIGHTS = sql.raw('10.0, 5.0, 2.0, 1.0, 1.0');
/** Tokens per snippet (FTS5 allows at most 64). */
const SNIPPET_TOKENS = 20;
/** Marks text left out of a snippet (written as an escape: the bundle stays ASCII, see scripts/build.mjs). */
const ELLIPSIS = '\u2026';
const COL_DESCRIPTION = 2;
const COL_BODY = 3;
const COL_BODY_REST = 4;
/** Characters of the body in the `body` column; the rest goes to `body_rest`. */
export const BODY_HEAD = 2000;

/** Splits a body after BODY_HEAD characters at whitespace, so no word is cut in two. */
export function splitBody(body: string): [head: string, rest: string] {
  if (body.length <= BODY_HEAD) return [body, ''];
  const cut = body.slice(0, BODY_HEAD).search(/\s\S*$/);
  const at = cut > 0 ? cut : BODY_HEAD;
  return [body.slice(0, at), body.slice(at)];
}

const snippetOf = (column: number) =>
  sql<string>`snippet(search_fts, ${sql.lit(column)}, ${MARK_START}, ${MARK_END}, ${sql.lit(ELLIPSIS)}, ${sql.lit(SNIPPET_TOKENS)})`;

/**
 * Creates the FTS table, the `fts_rowid` column and their indexes when missing, and
 * recreates and refills the FTS table when its columns differ; idempotent, one transaction.
 */
export async function initSqliteFts(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { rows: columns } = await sql<{ name: string }>`pragma table_info(search_documents)`.execute(trx);
    if (!columns.some((c) => c.name === 'fts_rowid')) {
      await sql`alter table search_documents add column fts_rowid integer`.execute(trx);
    }
    await sql`create unique index if not exists search_documents_fts_rowid
      on search_documents (fts_rowid)`.execute(trx);
    // Covers the join of every query: matched rows are filtered and shown from this small
    // index alone, never from table rows that carry whole bodies, which lie scattered
    // over many database pages.
    await sql`create index if not exists search_documents_fts_cover
      on search_documents (fts_rowid, workspace_id, restricted, status, path, title, page_id)`.execute(trx);
    const { rows: ftsColumns } = await sql<{ name: string }>`pragma table_info(search_fts)`.execute(trx);
    if (ftsColumns.map((c) => c.name).join() === FTS_COLUMNS.join()) return;
    await sql`drop table if exists search_fts`.execute(trx);
    // Prefix indexes for 2 and 3 characters: the last term is always a prefix query, and a
    // short one would otherwise merge the posting lists of every term it begins.
    await sql`create virtual table search_fts using fts5(
      ${sql.raw(FTS_COLUMNS.join(', '))},
      tokenize = 'porter unicode61 remove_diacritics 2', prefix = '2 3')`.execute(trx);
    // A new FTS table: whatever rowids were recorded point nowhere, so number afresh.
    await sql`update search_documents set fts_rowid = null`.execute(trx);
    const { rows: pages } = await sql<{ page_id: string }>`
      select page_id from search_documents order by page_id`.execute(trx);
    let rowid = 0;
    for (const { page_id } of pages) {
      const row = await findDocumentRow(trx, page_id);
      if (row) await insertFts(trx, ++rowid, row);
    }
  });
}

async function insertFts(db: Queryable, rowid: number, row: SearchDocumentsTable): Promise<void> {
  const [head, rest] = splitBody(row.body);
  await sql`
    insert into search_fts (rowid, title, tags, description, body, body_rest)
    values (${rowid}, ${row.title}, ${row.tags}, ${row.description}, ${head}, ${rest})`.execute(db);
  await sql`update search_documents set fts_rowid = ${rowid} where page_id = ${row.page_id}`.execute(db);
}

async function nextRowid(db: Queryable): Promise<number> {
  // max() over the unique index on fts_rowid: one index probe, and safe because SQLite
  // runs one writer at a time.
  const { rows } = await sql<{ n: number | null }>`select max(fts_rowid) as n from search_documents`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0) + 1;
}

/**
 * Writes a batch of documents with a statement per step, not per document: their old FTS
 * rows go, the rows are upserted, and the text goes into the FTS table under each page's
 * rowid (kept for a page already indexed, the next free ones for new pages). Pages appear
 * once in `rows`.
 */
export async function upsertFtsDocuments(
  db: Queryable,
  rows: readonly SearchDocumentsTable[],
): Promise<void> {
  if (rows.length === 0) return;
  const { rows: known } = await sql<{ page_id: string; fts_rowid: number | null }>`
    select page_id, fts_rowid from search_documents
    where page_id in (${sql.join(rows.map((r) => r.page_id))})`.execute(db);
  const kept = new Map<string, number>();
  for (const k of known) if (k.fts_rowid !== null) kept.set(k.page_id, k.fts_rowid);
  if (kept.size > 0) {
    await sql`delete from search_fts where rowid in (${sql.join([...kept.values()])})`.execute(db);
  }
  let next = await nextRowid(db);
  const placed = rows.map((row) => ({ row, rowid: kept.get(row.page_id) ?? next++ }));
  const fresh = placed.filter((p) => !kept.has(p.row.page_id));
  await upsertDocumentRows(db, rows);
  if (fresh.length > 0) {
    const cases = fresh.map((p) => sql`when ${p.row.page_id} then ${p.rowid}`);
    await sql`update search_documents set fts_rowid = case page_id ${sql.join(cases, sql` `)} end
      where page_id in (${sql.join(fresh.map((p) => p.row.page_id))})`.execute(db);
  }
  const values = placed.map(({ row, rowid }) => {
    const [head, rest] = splitBody(row.body);
    return sql`(${rowid}, ${row.title}, ${row.tags}, ${row.description}, ${head}, ${rest})`;
  });
  await sql`insert into search_fts (rowid, title, tags, description, body, body_rest)
    values ${sql.join(values)}`.execute(db);
}

/** Deletes these pages' rows and their FTS text (one statement each: callers batch long lists). */
export async function deleteFtsDocuments(db: Queryable, pageIds: readonly string[]): Promise<void> {
  if (pageIds.length === 0) return;
  await sql`delete from search_fts where rowid in (
    select fts_rowid from search_documents where page_id in (${sql.join(pageIds)}))`.execute(db);
  await db.deleteFrom('search_documents').where('page_id', 'in', pageIds).execute();
}

/** Deletes every page of a workspace from the index, FTS text included. */
export async function deleteWorkspaceFtsDocuments(db: Queryable, workspaceId: string): Promise<void> {
  await sql`delete from search_fts where rowid in (
    select fts_rowid from search_documents where workspace_id = ${workspaceId})`.execute(db);
  await db.deleteFrom('search_documents').where('workspace_id', '=', workspaceId).execute();
}

/** Which matches of an FTS MATCH expression a query keeps. */
export interface FtsMatchFilter {
  /** An FTS5 MATCH expression (see ftsMatchExpression in src/search/query-text.ts). */
  match: string;
  workspaceId: string;
  /** Only `published` pages. */
  publishedOnly?: boolean;
}

/** A match with its bm25 score (higher is better) and its FTS rowid, the key of its snippets. */
export interface FtsRankedRow {
  rid: number;
  page_id: string;
  path: string;
  title: string;
  score: number;
}

/** Unrestricted matching documents of the workspace: a query's FROM and WHERE. */
function matchesOf(filter: FtsMatchFilter): RawBuilder<unknown> {
  // CROSS JOIN pins the FTS match as the outer loop: SQLite must not scan the workspace's
  // documents and probe the FTS table once per row.
  return sql`
    from search_fts cross join search_documents d on d.fts_rowid = search_fts.rowid
    where search_fts match ${filter.match}
      and d.workspace_id = ${filter.workspaceId}
      and d.restricted = 0
      ${filter.publishedOnly ? sql`and d.status = 'published'` : sql``}`;
}

/**
 * The best `limit` matches, best first (ties by path). bm25() runs for every match, since
 * any of them may rank first; ORDER BY with LIMIT keeps only the best rows as it goes.
 */
export async function rankFtsMatches(
  db: Queryable,
  filter: FtsMatchFilter,
  limit: number,
): Promise<FtsRankedRow[]> {
  const { rows } = await sql<FtsRankedRow>`
    select search_fts.rowid as rid, d.page_id, d.path, d.title, -bm25(search_fts, ${BM25_WEIGHTS}) as score
    ${matchesOf(filter)}
    order by score desc, d.path
    limit ${limit}`.execute(db);
  return rows;
}

/**
 * The number of matches, counted no further than `cap`. FTS5's auxiliary functions cannot
 * share a query with a window function, so the count is a query of its own.
 */
export async function countFtsMatches(db: Queryable, filter: FtsMatchFilter, cap: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from (select 1 ${matchesOf(filter)} limit ${cap})`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** The highlighted texts of one FTS row; markers are MARK_START and MARK_END, not HTML. */
export interface FtsSnippetRow {
  rid: number;
  /** The snippet of the body's head. */
  head: string;
  description: string;
  /** Whether the body goes on past its head (see {@link splitBody}). */
  has_rest: boolean;
}

/**
 * Snippets of the body's head and the description of these rows of a match. `+rowid`
 * keeps FTS5 from using the rowid list as its plan: it would then re-run the whole MATCH
 * (prefix expansion included) for every rowid, where filtering the match's own rows is cheap.
 */
export async function ftsSnippets(
  db: Queryable,
  match: string,
  rowids: readonly number[],
): Promise<FtsSnippetRow[]> {
  if (rowids.length === 0) return [];
  const { rows } = await sql<{ rid: number; head: string; description: string; has_rest: number }>`
    select rowid as rid, ${snippetOf(COL_BODY)} as head, ${snippetOf(COL_DESCRIPTION)} as description,
      length(body_rest) > 0 as has_rest
    from search_fts
    where search_fts match ${match} and +rowid in (${sql.join(rowids)})`.execute(db);
  return rows.map((r) => ({ ...r, has_rest: Boolean(r.has_rest) }));
}

/** Snippets of the rest of the body (past its head) of these rows of a match, by rowid. */
export async function ftsRestSnippets(
  db: Queryable,
  match: string,
  rowids: readonly number[],
): Promise<Map<number, string>> {
  if (rowids.length === 0) return new Map();
  const { rows } = await sql<{ rid: number; rest: string }>`
    select rowid as rid, ${snippetOf(COL_BODY_REST)} as rest
    from search_fts
    where search_fts match ${match} and +rowid in (${sql.join(rowids)})`.execute(db);
  return new Map(rows.map((r) => [r.rid, r.rest]));
}
