/**
 * Rendered pages cached so a page is rendered once per change, not once per request.
 * Bounded by entry count and by approximate bytes, because one huge page must not be able
 * to push the process past its memory budget.
 */
import { LruCache } from '../lib/lru-cache.js';
import type { RenderedPage } from './markdown.js';

/** Limits of a {@link RenderCache}; defaults suit one instance serving many workspaces. */
export interface RenderCacheOptions {
  /** Most entries kept (default 2,000). */
  maxEntries?: number;
  /** Most bytes kept, estimated as UTF-16 string sizes (default 32 MiB). */
  maxBytes?: number;
}

/**
 * Builds a cache key. `contentHash` is the page's `content_hash`; `contextKey` must
 * change whenever anything else the output depends on changes: workspace, version,
 * site or export mode, base path, and the set of pages wikilinks can resolve to (a
 * tree revision), otherwise a new page would still show as a missing wikilink.
 */
export function renderCacheKey(contentHash: string, contextKey: string): string {
  return `${contentHash}\u0000${contextKey}`;
}

function sizeOf(page: RenderedPage): number {
  let chars = page.html.length + (page.title?.length ?? 0);
  for (const entry of page.toc) chars += entry.id.length + entry.text.length + 16;
  for (const link of page.links) chars += link.length + 8;
  return chars * 2 + 128;
}

/** An LRU cache of {@link RenderedPage}s sized by their strings. */
export class RenderCache extends LruCache<RenderedPage> {
  constructor(options: RenderCacheOptions = {}) {
    super(
      Math.max(1, options.maxEntries ?? 2_000),
      Math.max(1, options.maxBytes ?? 32 * 1024 * 1024),
      sizeOf,
    );
  }

  /** Returns the cached page for `key` or renders, stores and returns it. */
  getOrRender(key: string, render: () => RenderedPage): RenderedPage {
    return this.getOrCreate(key, render);
  }
}
