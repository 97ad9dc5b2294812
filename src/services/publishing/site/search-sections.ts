/**
 * What the reader's instant search indexes and how: the sections of a published page (see
 * render/sections.ts), fields weighted title > heading > text, the last term matched as a
 * prefix while typing, longer terms with one typo in five letters forgiven. The server's
 * search.json ranks pages with MiniSearch and then picks sections in the best pages; the
 * static export ships a compact index of its own (export-search.ts) that the palette script
 * (render/site-assets) searches with the same weights and matching rules.
 */
import type * as MiniSearchModule from 'minisearch';
import type MiniSearch from 'minisearch';
import type { Options, SearchOptions } from 'minisearch';
import { LruCache } from '../../../lib/lru-cache.js';
import type { PageSection } from '../../../render/sections.js';
import type { SitePage } from './nav.js';
import { importPackage } from '../../../lib/import-package.js';
import { nextLoopTurn } from '../../../lib/event-loop-turn.js';

/**
 * One indexed page: its title, its headings and its sections' text, each a field. The
 * index ranks pages; the sections a hit lands on are picked within the best pages only
 * (site-search.ts), so a word found in every section costs one score per page, not per section.
 */
export interface PageDoc {
  id: number;
  title: string;
  heading: string;
  text: string;
}

/** The index's fields. */
export const SEARCH_FIELDS = ['title', 'heading', 'text'] as const;

/** Title, heading and body text, weighted in that order (the export's palette uses the same weights). */
export const FIELD_WEIGHTS = { title: 4, heading: 2, text: 1 } as const;

/** Title, heading and body text, weighted in that order. */
export const SEARCH_OPTIONS: SearchOptions = {
  boost: { ...FIELD_WEIGHTS },
  combineWith: 'AND',
  // As the API search does: the last term is a prefix once it has two letters.
  prefix: (term, i, terms) => i === terms.length - 1 && term.length > 1,
  fuzzy: false,
};

/**
 * The retry when nothing matched: longer terms with one typo in five letters forgiven.
 * Only then, because a fuzzy search costs many times an exact one on a large index.
 */
export const TYPO_OPTIONS: SearchOptions = {
  fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
  maxFuzzy: 2,
};

/** A new, empty page index with the shared options; MiniSearch is loaded on the first site search, not at start. */
export async function newIndex(): Promise<MiniSearch<PageDoc>> {
  const { default: MiniSearchIndex } = await importPackage<typeof MiniSearchModule>('minisearch');
  return new MiniSearchIndex<PageDoc>(indexOptions());
}

/** The options an index is created and loaded with. */
export function indexOptions(): Options<PageDoc> {
  return { fields: [...SEARCH_FIELDS], idField: 'id', searchOptions: SEARCH_OPTIONS };
}

/** The terms of a text as the index splits and folds them (MiniSearch's default tokenizer). */
export function termsOf(text: string): string[] {
  return text
    .split(/[\n\r\p{Z}\p{P}]+/u)
    .filter(Boolean)
    .map((t) => t.toLowerCase());
}

/** Sections by body hash: a page is cut again only when its text changed. */
const sectionCache = new LruCache<PageSection[]>(20_000, 64 * 1024 * 1024, (sections) =>
  sections.reduce((n, s) => n + s.text.length + (s.heading?.length ?? 0) + 32, 0),
);

/**
 * The sections of one page body, cached by its content hash. The section parser (the
 * Markdown stack with every dialect) is loaded on the first search, not at start.
 */
export async function sectionsOf(page: SitePage, body: string): Promise<PageSection[]> {
  const key = page.contentHash || `${page.path}\u0000${body.length}`;
  let sections = sectionCache.get(key);
  if (!sections) {
    const { markdownSections } = await import('../../../render/sections.js');
    sections = markdownSections(body);
    sectionCache.set(key, sections);
  }
  return sections;
}

/** Milliseconds of work between two yields to the event loop while indexing. */
const SLICE_MS = 12;

/** Lets other requests run: called between pages when a slice of work is used up. */
export function yielder(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < SLICE_MS) return;
    await nextLoopTurn();
    since = performance.now();
  };
}

/** The document of one page: the title, its headings and its sections' text. */
export function pageDoc(page: SitePage, sections: readonly PageSection[], id: number): PageDoc {
  return {
    id,
    title: page.title,
    heading: sections.map((s) => s.heading ?? '').join('\n'),
    text: sections.map((s) => s.text).join('\n'),
  };
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
/** Characters of text around the first match. */
const SNIPPET_CHARS = 160;
const SNIPPET_LEAD = 50;

/**
 * A short extract of `text` around the first of `terms` (index terms, lower case, each
 * the start of a word), HTML-escaped with every matching word in <mark>; the start of the
 * text when none occurs there. Linear in the text.
 */
export function snippet(text: string, terms: readonly string[]): string {
  if (!text) return '';
  const words = [...new Set(terms)].filter(Boolean).map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = words.length
    ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join('|')})[\\p{L}\\p{N}]*`, 'giu')
    : null;
  const first = pattern ? text.search(pattern) : -1;
  let start = first > SNIPPET_LEAD ? first - SNIPPET_LEAD : 0;
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space >= 0 && space < first ? space + 1 : start;
  }
  let end = Math.min(text.length, start + SNIPPET_CHARS);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    end = space > start ? space : end;
  }
  const part = text.slice(start, end);
  // Escaped piece by piece, so the marks are the only markup.
  let html = '';
  let at = 0;
  for (const m of pattern ? part.matchAll(pattern) : []) {
    html += `${escape(part.slice(at, m.index))}<mark>${escape(m[0])}</mark>`;
    at = m.index + m[0].length;
  }
  html += escape(part.slice(at));
  return `${start > 0 ? '\u2026' : ''}${html}${end < text.length ? '\u2026' : ''}`;
}
