import type { BucketLimit, BucketName, BucketTable } from './buckets.js';
import { UNLIMITED } from './operator-limits.js';

/**
 * An organization's own limits, replacing some buckets' (Cloud: set by the platform owner);
 * null when it has none.
 */
export type OrgRateLimits = (orgId: string) => Promise<Partial<Record<BucketName, number>> | null>;

/** Spends one unit of an organization's bucket at that organization's limit; false once it is exhausted. */
export type OrgQuota = (bucket: BucketName, orgId: string) => Promise<boolean>;

/** How one organization's limits differ from the instance's table (the Cloud edition's). */
export interface PerOrgLimits {
  /** The organization's own table: its plan's tier. */
  tableFor?: (orgId: string) => Promise<BucketTable>;
  /** The platform owner's figures for it, which replace single buckets of that table. */
  orgLimits?: OrgRateLimits;
}

/**
 * The limit an organization's requests meet in each bucket: its plan's tier, with the
 * platform owner's own figure over it. A bucket the operator turned off (RATE_LIMITS)
 * stays off, and registration is counted per IP, never by an organization's figures.
 * HTTP routes and MCP tool calls both count through it.
 */
export async function limitsOfOrg(
  orgId: string,
  table: BucketTable,
  perOrg: PerOrgLimits,
): Promise<(bucket: BucketName) => BucketLimit> {
  const orgTable = perOrg.tableFor ? await perOrg.tableFor(orgId) : table;
  const overrides = perOrg.orgLimits ? await perOrg.orgLimits(orgId) : null;
  return (bucket) => {
    const limits = orgTable[bucket];
    const own = bucket === 'registration' || limits.limit === UNLIMITED ? undefined : overrides?.[bucket];
    return own === undefined ? limits : { ...limits, limit: own };
  };
}
