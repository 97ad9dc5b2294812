/** Counters of an {@link LruCache}, for tests and metrics. */
export interface LruCacheStats {
  hits: number;
  misses: number;
  evictions: number;
  entries: number;
  bytes: number;
}

/**
 * An LRU map bounded by entry count and by an estimated byte size: the published site's
 * documents and loaded versions, and rendered page bodies (src/render/render-cache.ts).
 * `Map` insertion order is the recency order.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  /**
   * @param maxEntries most entries kept
   * @param maxBytes most estimated bytes kept; a single larger value is not stored
   * @param sizeOf estimated bytes of a value (default 1, so only `maxEntries` binds)
   */
  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
    private readonly sizeOf: (value: V) => number = () => 1,
  ) {}

  /** The value for `key`, marking it most recently used (counts as a hit or a miss). */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * The cached value for `key`, or `create()`'s, stored before it is returned. Errors of
   * `create` propagate and nothing is stored.
   */
  getOrCreate(key: string, create: () => V): V {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const value = create();
    this.set(key, value);
    return value;
  }

  /** Stores a value, evicting the least recently used entries beyond the limits. */
  set(key: string, value: V): void {
    this.delete(key);
    const bytes = this.sizeOf(value);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
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

  get size(): number {
    return this.entries.size;
  }

  /** Current counters and sizes. */
  get stats(): LruCacheStats {
    const { hits, misses, evictions, bytes } = this;
    return { hits, misses, evictions, entries: this.entries.size, bytes };
  }
}
