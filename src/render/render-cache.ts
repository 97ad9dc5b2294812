/**
 * An LRU cache of rendered pages so a page is rendered once per change, not once per
 * request. Bounded by entry count and by approximate bytes, because one huge page must
 * not be able to push the process past its memory budget (SPEC.md part 8: < 200 MB).
 */
import type { RenderedPage } from './markdown.js';

/** Limits of a {@link RenderCache}; defaults suit one instance serving many workspaces. */
export interface RenderCacheOptions {
  /** Most entries kept (default 2,000). */
  maxEntries?: number;
  /** Most bytes kept, estimated as UTF-16 string sizes (default 32 MiB). */
  maxBytes?: number;
}

/** Counters for tests and metrics. */
export interface RenderCacheStats {
  hits: number;
  misses: number;
  evictions: number;
  entries: number;
  bytes: number;
}

interface Entry {
  page: RenderedPage;
  bytes: number;
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

/** LRU cache of {@link RenderedPage}s; `Map` insertion order is the recency order. */
export class RenderCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(options: RenderCacheOptions = {}) {
    this.maxEntries = Math.max(1, options.maxEntries ?? 2_000);
    this.maxBytes = Math.max(1, options.maxBytes ?? 32 * 1024 * 1024);
  }

  /**
   * Returns the cached page for `key` or renders, stores and returns it. A page larger
   * than `maxBytes` on its own is returned but not stored. `render` errors propagate
   * and nothing is cached.
   */
  getOrRender(key: string, render: () => RenderedPage): RenderedPage {
    const cached = this.entries.get(key);
    if (cached) {
      this.hits++;
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached.page;
    }
    this.misses++;
    const page = render();
    this.set(key, page);
    return page;
  }

  /** The cached page without rendering (counts as a hit or a miss). */
  get(key: string): RenderedPage | undefined {
    const cached = this.entries.get(key);
    if (!cached) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, cached);
    return cached.page;
  }

  /** Stores a page, evicting the least recently used entries beyond the limits. */
  set(key: string, page: RenderedPage): void {
    this.delete(key);
    const bytes = sizeOf(page);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { page, bytes });
    this.bytes += bytes;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
      this.evictions++;
    }
  }

  /** Drops one entry; true when it was cached. */
  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.bytes -= entry.bytes;
    return this.entries.delete(key);
  }

  /** Drops every entry (counters are kept). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Current counters and sizes. */
  get stats(): RenderCacheStats {
    return {
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
      entries: this.entries.size,
      bytes: this.bytes,
    };
  }
}

/** Convenience factory, for symmetry with `createRenderer()`. */
export function createRenderCache(options?: RenderCacheOptions): RenderCache {
  return new RenderCache(options);
}
