import type { Redis } from 'ioredis';
import type { BucketLimit } from './buckets.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch milliseconds when the current window ends. */
  resetAt: number;
}

/** Counts hits in fixed windows. One implementation per process, or one shared through Redis. */
export interface RateLimiter {
  hit(key: string, bucket: BucketLimit): Promise<RateDecision>;
  close(): Promise<void>;
}

function decide(count: number, bucket: BucketLimit, resetAt: number): RateDecision {
  return {
    allowed: count <= bucket.limit,
    limit: bucket.limit,
    remaining: Math.max(0, bucket.limit - count),
    resetAt,
  };
}

/** Fixed-window counters in this process's memory, swept as windows expire. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async hit(key: string, bucket: BucketLimit): Promise<RateDecision> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + bucket.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return decide(window.count, bucket, window.resetAt);
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.windows.clear();
  }
}

/**
 * The same windows kept in Redis so every instance shares them. INCR and
 * PEXPIRE run in one MULTI so a window always expires.
 */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'folio:rl:',
  ) {}

  async hit(key: string, bucket: BucketLimit): Promise<RateDecision> {
    const redisKey = this.prefix + key;
    const result = await this.redis
      .multi()
      .incr(redisKey)
      .pexpire(redisKey, bucket.windowMs, 'NX')
      .pttl(redisKey)
      .exec();
    const count = Number(result?.[0]?.[1] ?? 1);
    const ttl = Number(result?.[2]?.[1] ?? bucket.windowMs);
    return decide(count, bucket, Date.now() + (ttl > 0 ? ttl : bucket.windowMs));
  }

  async close(): Promise<void> {
    // The Redis connection is owned by whoever created it.
  }
}
