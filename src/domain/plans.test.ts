import { describe, expect, it } from 'vitest';
import { bucketTable } from '../ratelimit/buckets.js';
import { planBucketTables } from '../ratelimit/plan-tiers.js';
import { GRACE_PERIOD_MS, planGranted, planOf } from './plans.js';

describe('planGranted', () => {
  const now = new Date('2026-03-01T00:00:00Z');
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();

  it('grants the plan while paid for, and Free once the subscription ends', () => {
    expect(planGranted({ plan: 'team', status: 'active', grace_until: null }, now)).toBe('team');
    expect(planGranted({ plan: 'business', status: 'trialing', grace_until: null }, now)).toBe('business');
    expect(planGranted({ plan: 'team', status: 'canceled', grace_until: null }, now)).toBe('free');
    // A first payment that never went through paid for nothing.
    expect(planGranted({ plan: 'team', status: 'incomplete', grace_until: at(GRACE_PERIOD_MS) }, now)).toBe(
      'free',
    );
  });

  it('keeps the plan through the grace period after a failed payment, then Free', () => {
    expect(planGranted({ plan: 'team', status: 'past_due', grace_until: at(1) }, now)).toBe('team');
    expect(planGranted({ plan: 'team', status: 'past_due', grace_until: at(0) }, now)).toBe('free');
    expect(planGranted({ plan: 'team', status: 'unpaid', grace_until: null }, now)).toBe('free');
  });

  it('treats an unknown plan in the database as Free', () => {
    expect(planOf('platinum').id).toBe('free');
    expect(planOf(null).limits).toEqual({ workspaces: 1, editors: 3, pages: 50 });
  });
});

describe('planBucketTables', () => {
  it('gives each plan its tier and leaves untiered and operator-set buckets alone', () => {
    const base = bucketTable({ search: { limit: 7 } });
    const tables = planBucketTables(base, new Set(['search']));
    expect(tables.free.contentRead).toEqual({ limit: 100, windowMs: 60_000 });
    expect(tables.team.contentWrite.limit).toBe(60);
    expect(tables.enterprise.gitWebhook.limit).toBe(120);
    expect(tables.business.search.limit).toBe(7);
    expect(tables.free.auth).toEqual(base.auth);
  });
});
