/**
 * The reader's instant search (`search.json`, CONTRACT.md part 6): the published sections
 * of the source being read, grouped by page, best first. Each source (the live pages, a
 * version) has an in-memory index of its sections, built in slices that yield to the event
 * loop and then kept: when the live pages change, only pages whose text or title changed
 * are indexed again. A version never changes, and the database's page search cannot see
 * inside one, which is why the index is built from the source rather than from SQL.
 */
import type MiniSearch from 'minisearch';
import { LruCache } from '../../../lib/lru-cache.js';
import type { Linker, SitePage } from './nav.js';
import { weakEtag, type CacheMode, type SiteResponse } from './response.js';
import {
  newIndex,
  pageDocs,
  sectionsOf,
  snippet,
  TYPO_OPTIONS,
  yielder,
  type SectionDoc,
} from './search-sections.js';
import type { SiteSource } from './source.js';

/** Pages in one answer, and hits shown per page. */
export const SEARCH_JSON_PAGES = 10;
const HITS_PER_PAGE = 3;
/** Longest query looked at. */
export const MAX_SEARCH_QUERY = 200;
/** Sections kept in memory over all indexes; the least recently used index goes first. */
const MAX_SECTIONS = 300_000;

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

interface Built {
  index: MiniSearch<SectionDoc>;
  docs: Map<number, SectionDoc>;
  /** Per page path: what was indexed (to tell a changed page) and its document ids. */
  pages: Map<string, { hash: string; title: string; ids: number[] }>;
  nextId: number;
}

interface Entry {
  source: SiteSource;
  built: Promise<Built>;
  /** Sections held once built (0 while building). */
  size: number;
}

/** Brings `built` (empty or of an older source) up to `source`: changed pages out, new ones in. */
async function update(built: Built, source: SiteSource): Promise<Built> {
  const pause = yielder();
  for (const [path, known] of built.pages) {
    const page = source.byPath.get(path);
    if (page && page.contentHash === known.hash && page.title === known.title) continue;
    for (const id of known.ids) {
      built.index.discard(id);
      built.docs.delete(id);
    }
    built.pages.delete(path);
    await pause();
  }
  const nextId = () => built.nextId++;
  for (const page of source.pages) {
    if (built.pages.has(page.path)) continue;
    const docs = pageDocs(page, sectionsOf(page, await source.body(page)), nextId);
    built.index.addAll(docs);
    for (const doc of docs) built.docs.set(doc.id, doc);
    built.pages.set(page.path, { hash: page.contentHash, title: page.title, ids: docs.map((d) => d.id) });
    await pause();
  }
  return built;
}

/** Groups section results by page: a page's hits under its best score, at most HITS_PER_PAGE each. */
function grouped(
  built: Built,
  source: SiteSource,
  results: ReturnType<MiniSearch<SectionDoc>['search']>,
  linker: Linker,
): { total: number; pages: SearchJsonPage[] } {
  const pages = new Map<string, SearchJsonPage>();
  for (const result of results) {
    const doc = built.docs.get(result.id as number);
    const page: SitePage | undefined = doc && source.byPath.get(doc.page);
    if (!doc || !page) continue;
    let group = pages.get(page.path);
    if (!group) {
      if (pages.size >= SEARCH_JSON_PAGES) {
        pages.set(page.path, { path: page.path, title: '', href: '', hits: [] });
        continue;
      }
      group = { path: page.path, title: page.title, href: linker.page(page.path), hits: [] };
      pages.set(page.path, group);
    }
    if (!group.href || group.hits.length >= HITS_PER_PAGE) continue;
    // A match on the page's title alone is the page itself, not each of its sections.
    const titleOnly = Object.values(result.match).every((fields) => fields.every((f) => f === 'title'));
    const anchor = titleOnly ? null : doc.anchor;
    const heading = titleOnly ? null : doc.heading || null;
    if (group.hits.some((h) => h.anchor === anchor)) continue;
    group.hits.push({
      heading,
      anchor,
      href: anchor ? `${group.href}#${encodeURIComponent(anchor)}` : group.href,
      snippet: snippet(titleOnly ? (pageIntro(built, page.path) ?? doc.text) : doc.text, result.terms),
    });
  }
  const listed = [...pages.values()].filter((p) => p.href);
  return { total: pages.size, pages: listed };
}

/** The first section's text of a page: what a title match shows. */
function pageIntro(built: Built, path: string): string | null {
  const id = built.pages.get(path)?.ids[0];
  return id === undefined ? null : (built.docs.get(id)?.text ?? null);
}

/** Builds the site search: one index per source (by workspace and source key), bounded in memory. */
export function createSiteSearch() {
  const entries = new LruCache<Entry>(256, MAX_SECTIONS, (entry) => entry.size);

  function indexFor(workspaceId: string, source: SiteSource): Promise<Built> {
    const key = `${workspaceId}\u0000${source.key}`;
    const entry = entries.get(key);
    if (entry?.source === source) return entry.built;
    // Chained on the previous build, so updates never run two at a time on one index.
    const previous = entry ? entry.built.catch(() => null) : Promise.resolve(null as Built | null);
    const built = previous.then((old) =>
      update(old ?? { index: newIndex(), docs: new Map(), pages: new Map(), nextId: 1 }, source),
    );
    entries.set(key, { source, built, size: entry?.size ?? 0 });
    built.then(
      (b) => {
        // Set again with its size now known, so the memory bound counts it.
        if (entries.get(key)?.built === built) entries.set(key, { source, built, size: b.docs.size });
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
      const { total, pages } = grouped(built, source, results, linker);
      return { query: q, version, total, results: pages };
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
