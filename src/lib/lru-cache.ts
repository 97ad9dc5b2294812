/**
 * A small LRU map bounded by entry count and by an estimated byte size, for the
 * published site's documents and loaded versions. (`RenderCache` in src/render/ is the
 * same idea specialised to rendered page bodies.)
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private bytes = 0;

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

  /** The value for `key`, marking it most recently used. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
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
    }
  }

  /** Drops one entry. */
  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
