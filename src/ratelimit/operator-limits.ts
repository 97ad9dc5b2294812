import { type BucketLimit, type BucketName, RATE_BUCKETS } from './buckets.js';

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A bucket an operator turned off: never counted, never refused. */
export const UNLIMITED = Number.POSITIVE_INFINITY;

/**
 * RATE_LIMITS, the operator's changes to the limits of a self-hosted instance:
 * comma-separated `bucket=limit`, `bucket=limit/window` (`30s`, `1m`, `1h`, `1d`) or
 * `bucket=off`, e.g. `contentWrite=600,search=200/1m,publishedDocs=off`. Buckets not named
 * keep their defaults. Throws a message naming the entry that is wrong.
 */
export function parseRateLimits(text: string): Partial<Record<BucketName, Partial<BucketLimit>>> {
  const limits: Partial<Record<BucketName, Partial<BucketLimit>>> = {};
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const match = /^(\w+)=(?:(off)|(\d+)(?:\/(\d+)([smhd]))?)$/.exec(entry);
    if (!match) throw new Error(`"${entry}" is not bucket=limit, bucket=limit/window or bucket=off`);
    const [, name, off, limit, count, unit] = match;
    if (!(name! in RATE_BUCKETS)) {
      throw new Error(`"${name}" is not a bucket; the buckets are ${Object.keys(RATE_BUCKETS).join(', ')}`);
    }
    limits[name as BucketName] = off
      ? { limit: UNLIMITED }
      : {
          limit: Number(limit),
          ...(unit ? { windowMs: Number(count) * UNITS[unit]! } : {}),
        };
  }
  return limits;
}
