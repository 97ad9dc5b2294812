import { escapeHtml } from '../render/escape.js';

/**
 * Text handling shared by both index implementations: turning a user's query into terms
 * that no query syntax can be smuggled through, and turning a highlighter's output into
 * The API's snippet (escaped text, matches in <mark>).
 */

/**
 * Highlight markers handed to FTS5's snippet() and PostgreSQL's ts_headline(). Neither
 * escapes the text around them, so the markers must survive HTML escaping and never occur
 * in indexed text: two private-use code points, which `indexText` strips from documents.
 */
export const MARK_START = '\uE000';
export const MARK_END = '\uE001';
/**
 * Stands in for `<` in text given to PostgreSQL's parser, which takes `<script>` or `<b>`
 * for a tag and drops it from both the vector and ts_headline's output; with the stand-in
 * the words inside are indexed like any others. `markSnippet` turns it back into `<`.
 */
export const TAG_GUARD = '\uE002';
const MARKERS = /[\uE000-\uE002]/g;

/** At most this many terms of a query are used; more adds cost, not precision. */
export const MAX_TERMS = 16;

/**
 * Body text beyond this many characters is not indexed. PostgreSQL refuses a tsvector over
 * 1 MB and both highlighters scan the whole text, so an unbounded body would make one
 * oversized page fail to index or slow every search that hits it.
 */
export const MAX_INDEXED_BODY = 300_000;

// Letters, digits and combining marks: what FTS5's unicode61 tokenizer and PostgreSQL's
// parser treat as word characters. Everything else separates terms, so quotes, `*`, `:`,
// `-`, parentheses and NEAR( can never reach either query language as syntax.
const TERM = /[\p{L}\p{N}\p{M}]+/gu;

/** The words of a query, lower-cased, de-duplicated, at most MAX_TERMS; empty when none. */
export function queryTerms(q: string): string[] {
  const terms: string[] = [];
  for (const match of q.normalize('NFC').matchAll(TERM)) {
    const term = match[0].toLowerCase();
    if (!terms.includes(term)) terms.push(term);
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/**
 * Whether term `i` of `terms` is matched as a prefix: the last one, so results appear while
 * the user is still typing, unless it is a single character, which would expand to nearly
 * every word of the index (seconds at 10,000 pages) for no useful result.
 */
const isPrefix = (terms: readonly string[], i: number): boolean =>
  i === terms.length - 1 && [...terms[i]!].length > 1;

/**
 * An FTS5 MATCH expression: every term a quoted string (implicit AND), the last one a
 * prefix query (see `isPrefix`). Terms hold only word characters, so the quoting cannot be
 * broken out of.
 */
export function ftsMatchExpression(terms: readonly string[]): string {
  return terms.map((t, i) => `"${t}"${isPrefix(terms, i) ? '*' : ''}`).join(' ');
}

/**
 * The text of a PostgreSQL tsquery with the same meaning as `ftsMatchExpression`: terms
 * joined by `&`, the last with `:*`. Single-quoted lexemes, safe for the same reason.
 */
export function tsQueryText(terms: readonly string[]): string {
  return terms.map((t, i) => `'${t}'${isPrefix(terms, i) ? ':*' : ''}`).join(' & ');
}

/** Prepares document text for the index: no highlight markers or tag guards inside. */
export function indexText(text: string, max = Number.POSITIVE_INFINITY): string {
  const clean = text.replace(MARKERS, '');
  return clean.length > max ? clean.slice(0, max) : clean;
}

/**
 * Turns highlighter output (raw text with MARK_START/MARK_END around matches) into HTML:
 * the text escaped (tag guards back to `<` first), the markers replaced by <mark> and
 * </mark>, and newlines folded so the
 * snippet reads as one line. An unmatched marker is dropped rather than left open.
 */
export function markSnippet(raw: string): string {
  let html = '';
  let open = false;
  const text = raw.replaceAll(TAG_GUARD, '<').replace(/\s+/g, ' ').trim();
  for (const part of text.split(/([\uE000\uE001])/)) {
    if (part === MARK_START) {
      if (!open) html += '<mark>';
      open = true;
    } else if (part === MARK_END) {
      if (open) html += '</mark>';
      open = false;
    } else {
      html += escapeHtml(part);
    }
  }
  return open ? html + '</mark>' : html;
}

/** Whether a highlighter's raw output contains a highlighted match. */
export const hasMark = (raw: string): boolean => raw.includes(MARK_START);
