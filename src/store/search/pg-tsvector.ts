/**
 * The PostgreSQL-only structures of the search index and its query: a weighted tsvector
 * ranked with ts_rank_cd and highlighted with ts_headline.
 *
 * Layout. Migration 0003 creates the portable `search_documents` table.
 * {@link initPgTsvector} adds the PostgreSQL-only parts, since migrations hold no dialect
 * branches:
 *   - `search_documents.search_vector`, a stored generated column weighting title A, tags
 *     B, description C and body D, so it can never drift from the row's text (`<` is
 *     swapped for TAG_GUARD first, see src/search/query-text.ts; changing this expression
 *     later needs the column dropped, since ADD COLUMN IF NOT EXISTS keeps an existing one);
 *   - a GIN index on it;
 *   - storage settings that keep vectors inside their rows, out of TOAST.
 * Each step is idempotent and runs under an advisory lock, so instances starting together
 * do not race; a column added to a table that already holds rows is computed for them by
 * PostgreSQL itself.
 *
 * The `english` configuration stems ("installing" finds "install") like the SQLite
 * index's porter tokenizer.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { MARK_END, MARK_START, TAG_GUARD, tsQueryText } from '../../search/query-text.js';
import type { Database } from '../schema.js';
import type { Queryable } from '../repositories/queryable.js';

/** The text-search configuration of both the stored vector and every query. */
const TS_CONFIG = sql.lit('english');
/** ts_rank_cd weights in D, C, B, A order: body 1, description 2, tags 5, title 10. */
const RANK_WEIGHTS = sql.lit('{0.1, 0.2, 0.5, 1.0}');
/** ts_headline options; the markers are escaped and turned into <mark> afterwards. */
const HEADLINE_OPTIONS = sql.lit(
  `StartSel=${MARK_START}, StopSel=${MARK_END}, MinWords=12, MaxWords=24, ShortWord=2, MaxFragments=1`,
);
/** `text` with `<` swapped for TAG_GUARD, so the parser does not drop `<tag>` text as markup. */
const guarded = (text: string | RawBuilder<string>) =>
  sql`replace(${typeof text === 'string' ? sql.ref(text) : text}, '<', ${sql.lit(TAG_GUARD)})`;
/** Characters of a body handed to ts_headline, and how many of them precede the first match. */
const HEADLINE_WINDOW = 480;
const HEADLINE_LEAD = 120;

/**
 * The part of the body ts_headline looks at. It parses all the text it is given, which
 * made highlighting long pages cost more than the whole search; a window around the
 * first literal occurrence of the first term's likely stem is enough for one fragment.
 * When the body never spells the term that way (a stemmed form), the window is the start
 * of the body, and the headline is its opening words, as for a title-only match.
 */
function headlineWindow(terms: readonly string[]) {
  const first = terms[0] ?? '';
  const locator = first.slice(0, Math.max(4, first.length - 3));
  return sql<string>`substr(d.body, greatest(1, strpos(lower(d.body), ${locator}) - ${sql.lit(HEADLINE_LEAD)}), ${sql.lit(HEADLINE_WINDOW)})`;
}
/** Any constant: the key of the advisory lock serialising init across instances. */
const INIT_LOCK = 7_265_311;

/**
 * Adds the generated vector column, its GIN index and the storage settings when missing;
 * idempotent, under an advisory lock.
 */
export async function initPgTsvector(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(INIT_LOCK)})`.execute(trx);
    await sql`alter table search_documents add column if not exists search_vector tsvector
      generated always as (
        setweight(to_tsvector(${TS_CONFIG}, ${guarded('title')}), 'A') ||
        setweight(to_tsvector(${TS_CONFIG}, ${guarded('tags')}), 'B') ||
        setweight(to_tsvector(${TS_CONFIG}, ${guarded('description')}), 'C') ||
        setweight(to_tsvector(${TS_CONFIG}, ${guarded('body')}), 'D')
      ) stored`.execute(trx);
    await sql`create index if not exists search_documents_vector
      on search_documents using gin (search_vector)`.execute(trx);
    // Ranking reads the vector of every match, and fetching it from TOAST (the default
    // for a value over 2 KB) costs more than the ranking itself. Keep vectors in the
    // row where they fit. Applies to rows written from now on.
    await sql`alter table search_documents alter column search_vector set storage main`.execute(trx);
    await sql`alter table search_documents set (toast_tuple_target = 8160)`.execute(trx);
  });
}

/**
 * How many matches at most are ranked by ts_rank_cd (more when a query asks for more
 * results). Ranking is most of a query's cost once a word is on thousands of pages; a
 * reader never pages that far, and heading matches, which outrank body matches, are
 * always among the candidates unless there are more of them than this.
 */
const RANK_CANDIDATES = 200;

/**
 * Whether any term occurs in the title, tags or description (weights A, B, C): the
 * candidates are chosen by it. Terms hold only word characters (see `queryTerms`).
 */
function headingQuery(terms: readonly string[]) {
  const text = tsQueryText(terms)
    .split(' & ')
    .map((term) => (term.endsWith(':*') ? `${term}ABC` : `${term}:ABC`))
    .join(' | ');
  return sql`to_tsquery(${TS_CONFIG}, ${text})`;
}

/** A search as the ranking query takes it. */
export interface TsvectorSearch {
  /** Query terms (see queryTerms in src/search/query-text.ts): all required, the last a prefix. */
  terms: readonly string[];
  workspaceId: string;
  /** Only `published` pages. */
  publishedOnly?: boolean;
  limit: number;
  /** Matches counted at most. */
  totalCap: number;
}

/** One of the best matches, with the total repeated on every row and raw headlines. */
export interface TsvectorRankedRow {
  page_id: string;
  path: string;
  title: string;
  score: number;
  /** Matches counted up to the cap; a string as PostgreSQL returns a bigint. */
  total: string;
  /** Highlighted with MARK_START and MARK_END, not HTML. */
  body_snippet: string | null;
  description_snippet: string | null;
}

/** The best `limit` unrestricted matches of the workspace, best first (ties by path). */
export async function rankTsvectorMatches(
  db: Queryable,
  search: TsvectorSearch,
): Promise<TsvectorRankedRow[]> {
  const { terms } = search;
  const tsquery = sql`to_tsquery(${TS_CONFIG}, ${tsQueryText(terms)})`;
  const matches = sql`
    from search_documents d
    where d.search_vector @@ ${tsquery}
      and d.workspace_id = ${search.workspaceId}
      and d.restricted = 0
      ${search.publishedOnly ? sql`and d.status = 'published'` : sql``}`;
  // Ranking costs ts_rank_cd a few microseconds a match, too much for a word found on
  // every one of thousands of pages, so only a bounded set of candidates is ranked: the
  // matches holding a term in the title, tags or description first (a weighted match,
  // as cheap as the filter itself), then the rest by path. Every match is still read
  // once, to count it (at most the cap) and to find those heading matches; ts_headline,
  // which re-parses its text, runs for the best `limit` alone.
  const { rows } = await sql<TsvectorRankedRow>`
    with hits as materialized (
      select d.page_id, d.path, d.search_vector @@ ${headingQuery(terms)} as in_heading
      ${matches}
    ), candidates as (
      select page_id from hits
      order by in_heading desc, path limit ${sql.lit(Math.max(RANK_CANDIDATES, search.limit))}
    ), top as (
      select d.page_id, d.path, ts_rank_cd(${RANK_WEIGHTS}::float4[], d.search_vector, ${tsquery}) as score
      from candidates c join search_documents d on d.page_id = c.page_id
      order by score desc, d.path limit ${search.limit}
    )
    select top.page_id, top.path, d.title, top.score,
      (select least(count(*), ${search.totalCap}) from hits) as total,
      ts_headline(${TS_CONFIG}, ${guarded(headlineWindow(terms))}, ${tsquery}, ${HEADLINE_OPTIONS}) as body_snippet,
      ts_headline(${TS_CONFIG}, ${guarded('d.description')}, ${tsquery}, ${HEADLINE_OPTIONS}) as description_snippet
    from top join search_documents d on d.page_id = top.page_id
    order by top.score desc, top.path`.execute(db);
  return rows;
}
