/**
 * The API's limits. A route declares its bucket; the limiter counts per
 * organization when the request is authenticated and per IP otherwise.
 */
export const RATE_BUCKETS = {
  contentRead: { limit: 300, windowMs: 60_000 },
  contentWrite: { limit: 60, windowMs: 60_000 },
  search: { limit: 60, windowMs: 60_000 },
  auth: { limit: 20, windowMs: 60_000 },
  registration: { limit: 5, windowMs: 3_600_000 },
  passwordReset: { limit: 5, windowMs: 900_000 },
  gitWebhook: { limit: 30, windowMs: 60_000 },
  publishedDocs: { limit: 600, windowMs: 60_000 },
  dataExport: { limit: 1, windowMs: 86_400_000 },
  // The static-site ZIP. Each one renders every
  // published page, so 10 per hour per organization; GDPR exports keep `dataExport`.
  export: { limit: 10, windowMs: 3_600_000 },
  // AI calls have no documented limit: each call costs the operator money, so a modest per-org rate.
  ai: { limit: 30, windowMs: 60_000 },
} as const;

export type BucketName = keyof typeof RATE_BUCKETS;

export interface BucketLimit {
  limit: number;
  windowMs: number;
}

export type BucketTable = Record<BucketName, BucketLimit>;

/** The table with some limits replaced (tests shrink them; operators may too). */
export function bucketTable(overrides: Partial<Record<BucketName, Partial<BucketLimit>>> = {}): BucketTable {
  const table = {} as BucketTable;
  for (const name of Object.keys(RATE_BUCKETS) as BucketName[]) {
    table[name] = { ...RATE_BUCKETS[name], ...overrides[name] };
  }
  return table;
}

/** The content bucket an operation counts against when no route names one (MCP tools). */
export const rateBucketFor = (op: 'read' | 'write' | 'delete'): BucketName =>
  op === 'read' ? 'contentRead' : 'contentWrite';

/** The key of an organization's counter in a bucket: shared by HTTP routes and MCP tools. */
export const orgRateKey = (bucket: BucketName, orgId: string): string => `${bucket}:org:${orgId}`;
