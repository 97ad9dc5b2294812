/**
 * The reader's instant search (`search.json`): the published sections
 * of the source being read, grouped by page, best first. Each source (the live pages, a
 * version) has an in-memory index of its pages (one document per page: title, headings,
 * text) that ranks pages; the sections a hit lands on are then picked in the listed pages
 * only, so a common word costs one score per page, not one per section. The index is
 * built in slices that yield to the event loop and then kept: when the live pages change,
 * only pages whose text or title changed are indexed again. A version never changes, and the database's page search cannot see
 * inside one, which is why the index is built from the source rather than from SQL.
 */
import type MiniSearch from 'minisearch';
import type { SearchResult } from 'minisearch';
import { LruCache } from '../../../lib/lru-cache.js';
import type { PageSection } from '../../../render/sections.js';
import type { Linker, SitePage } from './nav.js';
import { weakEtag, type CacheMode, type SiteResponse } from './response.js';
import {
  FIELD_WEIGHTS,
  newIndex,
  pageDoc,
  sectionsOf,
  snippet,
  termsOf,
  TYPO_OPTIONS,
  yielder,
  type PageDoc,
} from './search-sections.js';
import type { SiteSource } from './source.js';

/** Pages in one answer, and hits shown per page. */
export const SEARCH_JSON_PAGES = 10;
const HITS_PER_PAGE = 3;
/** Longest query looked at. */
export const MAX_SEARCH_QUERY = 200;
/**
 * Estimated bytes kept in memory over all indexes; the least recently used index goes
 * first. Measured (bench/site-search.ts): an index retains about 6 bytes per character of
 * indexed text (53 MB for 5,000 pages of 1.7 KB).
 */
const MAX_INDEX_BYTES = 256 * 1024 * 1024;
const BYTES_PER_CHAR = 6;
const BYTES_PER_PAGE = 512;

/** Estimated bytes an indexed page keeps. */
function pageBytes(title: string, sections: readonly PageSection[]): number {
  let chars = title.length;
  for (const s of sections) chars += s.text.length + (s.heading?.length ?? 0);
  return BYTES_PER_PAGE + chars * BYTES_PER_CHAR;
}

/** One hit: a section of a page (heading null: the page itself) and where it opens. */
export interface SearchJsonHit {
  heading: string | null;
  anchor: string | null;
  href: string;
  /** HTML-escaped text with matches in <mark>. */
  snippet: string;
}

/** One page of results, with its hits best first. */
export interface SearchJsonPage {
  path: string;
  title: string;
  href: string;
  hits: SearchJsonHit[];
}

/** The answer of search.json. */
export interface SearchJsonAnswer {
  query: string;
  /** The version searched: its slug, or `latest` for the live pages. */
  version: string;
  /** Pages that matched (the answer lists at most SEARCH_JSON_PAGES of them). */
  total: number;
  results: SearchJsonPage[];
}

interface IndexedPage {
  /** What was indexed, to tell a changed page. */
  hash: string;
  title: string;
  id: number;
  sections: readonly PageSection[];
}

interface Built {
  /** One document per page; sections are looked at only in the pages that rank. */
  index: MiniSearch<PageDoc>;
  /** Page path by document id. */
  paths: Map<number, string>;
  pages: Map<string, IndexedPage>;
  nextId: number;
  /** Estimated bytes held. */
  bytes: number;
}

interface Entry {
  source: SiteSource;
  built: Promise<Built>;
  /** Estimated bytes held once built (0 while building). */
  size: number;
}

/** Brings `built` (empty or of an older source) up to `source`: changed pages out, new ones in. */
async function update(built: Built, source: SiteSource): Promise<Built> {
  const pause = yielder();
  for (const [path, known] of built.pages) {
    const page = source.byPath.get(path);
    if (page && page.contentHash === known.hash && page.title === known.title) continue;
    built.index.discard(known.id);
    built.paths.delete(known.id);
    built.bytes -= pageBytes(known.title, known.sections);
    built.pages.delete(path);
    await pause();
  }
  for (const page of source.pages) {
    if (built.pages.has(page.path)) continue;
    const sections = await sectionsOf(page, await source.body(page));
    const id = built.nextId++;
    built.index.add(pageDoc(page, sections, id));
    built.paths.set(id, page.path);
    built.pages.set(page.path, { hash: page.contentHash, title: page.title, id, sections });
    built.bytes += pageBytes(page.title, sections);
    await pause();
  }
  return built;
}

/**
 * The hits of one ranked page: its sections holding the most matched terms (a heading
 * weighs more than the text), best first, and the page itself where its title matched —
 * first when the title holds as many of the terms as the best section. Linear in the
 * page's sectioned text, which is bounded.
 */
function pageHits(page: IndexedPage, result: SearchResult, href: string): SearchJsonHit[] {
  const matched = new Set(result.terms);
  const inTitle = result.terms.filter((t) => result.match[t]?.includes('title')).length;
  const scored: Array<{ section: PageSection; covered: number; score: number; order: number }> = [];
  page.sections.forEach((section, order) => {
    const heading = new Set(termsOf(section.heading ?? '').filter((t) => matched.has(t)));
    const text = new Set(termsOf(section.text).filter((t) => matched.has(t)));
    const covered = new Set([...heading, ...text]).size;
    if (covered === 0) return;
    const score = heading.size * FIELD_WEIGHTS.heading + text.size * FIELD_WEIGHTS.text;
    scored.push({ section, covered, score, order });
  });
  scored.sort((a, b) => b.covered - a.covered || b.score - a.score || a.order - b.order);
  const hits: SearchJsonHit[] = [];
  const pageHit = (): SearchJsonHit => ({
    heading: null,
    anchor: null,
    href,
    snippet: snippet(page.sections[0]?.text ?? '', result.terms),
  });
  if (inTitle > 0 && inTitle >= (scored[0]?.covered ?? 0)) hits.push(pageHit());
  for (const { section } of scored) {
    if (hits.length >= HITS_PER_PAGE) break;
    if (hits.some((h) => h.anchor === section.anchor)) continue;
    hits.push({
      heading: section.heading || null,
      anchor: section.anchor,
      href: section.anchor ? `${href}#${encodeURIComponent(section.anchor)}` : href,
      snippet: snippet(section.text, result.terms),
    });
  }
  if (hits.length < HITS_PER_PAGE && inTitle > 0 && !hits.some((h) => h.anchor === null))
    hits.push(pageHit());
  return hits.length ? hits : [pageHit()];
}

/** The best pages of `results` (ranked pages) with their hits. */
function grouped(
  built: Built,
  source: SiteSource,
  results: SearchResult[],
  linker: Linker,
): SearchJsonPage[] {
  const listed: SearchJsonPage[] = [];
  for (const result of results) {
    if (listed.length >= SEARCH_JSON_PAGES) break;
    const path = built.paths.get(result.id as number);
    const indexed = path === undefined ? undefined : built.pages.get(path);
    const page: SitePage | undefined = path === undefined ? undefined : source.byPath.get(path);
    if (!indexed || !page) continue;
    const href = linker.page(page.path);
    listed.push({ path: page.path, title: page.title, href, hits: pageHits(indexed, result, href) });
  }
  return listed;
}

/** Builds the site search: one index per source (by workspace and source key), bounded in memory. */
export function createSiteSearch() {
  const entries = new LruCache<Entry>(256, MAX_INDEX_BYTES, (entry) => entry.size);

  function indexFor(workspaceId: string, source: SiteSource): Promise<Built> {
    const key = `${workspaceId}\u0000${source.key}`;
    const entry = entries.get(key);
    if (entry?.source === source) return entry.built;
    // Chained on the previous build, so updates never run two at a time on one index.
    const previous = entry ? entry.built.catch(() => null) : Promise.resolve(null as Built | null);
    const built = previous.then(async (old) =>
      update(
        old ?? { index: await newIndex(), paths: new Map(), pages: new Map(), nextId: 1, bytes: 0 },
        source,
      ),
    );
    entries.set(key, { source, built, size: entry?.size ?? 0 });
    built.then(
      (b) => {
        // Set again with its size now known, so the memory bound counts it.
        if (entries.get(key)?.built === built) entries.set(key, { source, built, size: b.bytes });
      },
      () => entries.get(key)?.built === built && entries.delete(key),
    );
    return built;
  }

  return {
    /**
     * The sections of `source` matching `query`, grouped by page with hrefs from `linker`;
     * `version` is echoed. An empty query finds nothing.
     */
    async query(
      workspaceId: string,
      source: SiteSource,
      linker: Linker,
      query: string,
      version: string,
    ): Promise<SearchJsonAnswer> {
      const q = query.normalize('NFC').trim().slice(0, MAX_SEARCH_QUERY);
      if (!q) return { query: q, version, total: 0, results: [] };
      const built = await indexFor(workspaceId, source);
      let results = built.index.search(q);
      if (results.length === 0) results = built.index.search(q, TYPO_OPTIONS);
      return { query: q, version, total: results.length, results: grouped(built, source, results, linker) };
    },

    /** Starts indexing a source ahead of its first query (a site's first reader need not wait). */
    warm(workspaceId: string, source: SiteSource): void {
      indexFor(workspaceId, source).catch(() => undefined);
    },
  };
}

export type SiteSearch = ReturnType<typeof createSiteSearch>;

/** search.json as the site sends it: JSON with an ETag, cached like the site's pages. */
export function searchJsonResponse(answer: SearchJsonAnswer, cache: CacheMode): SiteResponse {
  const body = JSON.stringify(answer);
  return {
    type: 'text',
    contentType: 'application/json; charset=utf-8',
    body,
    etag: weakEtag(body),
    cache,
  };
}
