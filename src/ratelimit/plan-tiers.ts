import { PLAN_IDS, type PlanId, RATE_TIERS, TIERED_BUCKETS } from '../domain/plans.js';
import type { BucketName, BucketTable } from './buckets.js';

/**
 * The Cloud edition's bucket table for each plan: the tiered buckets (content read and
 * write, search, git webhooks) take the plan's figure per minute; every other bucket, and
 * any bucket the operator (RATE_LIMITS) or a test set explicitly, stays as `base` says.
 */
export function planBucketTables(
  base: BucketTable,
  overridden: ReadonlySet<BucketName>,
): Readonly<Record<PlanId, BucketTable>> {
  const tables = {} as Record<PlanId, BucketTable>;
  for (const plan of PLAN_IDS) {
    const table = { ...base };
    for (const bucket of TIERED_BUCKETS) {
      if (overridden.has(bucket)) continue;
      table[bucket] = { limit: RATE_TIERS[plan][bucket], windowMs: 60_000 };
    }
    tables[plan] = table;
  }
  return tables;
}
