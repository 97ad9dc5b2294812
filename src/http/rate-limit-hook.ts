import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { Metrics } from '../metrics/metrics.js';
import { type BucketName, type BucketTable, orgRateKey } from '../ratelimit/buckets.js';
import type { RateDecision, RateLimiter } from '../ratelimit/limiter.js';
import { UNLIMITED } from '../ratelimit/operator-limits.js';
import './fastify-types.js';

/** The bucket key: per organization when authenticated, per IP otherwise (SPEC.md part 8). */
export function rateKey(request: FastifyRequest, bucket: BucketName): string {
  // Registration is counted per IP even for a signed-in caller (SPEC.md 5.2).
  if (request.actor && bucket !== 'registration') return orgRateKey(bucket, request.actor.orgId);
  return `${bucket}:ip:${request.ip}`;
}

/**
 * An organization's own limits, replacing some buckets' (Cloud: set by the platform owner);
 * null when it has none.
 */
export type OrgRateLimits = (orgId: string) => Promise<Partial<Record<BucketName, number>> | null>;

function setHeaders(reply: FastifyReply, decision: RateDecision): void {
  reply.header('X-RateLimit-Limit', String(decision.limit));
  reply.header('X-RateLimit-Remaining', String(decision.remaining));
  reply.header('X-RateLimit-Reset', String(Math.ceil(decision.resetAt / 1000)));
}

/**
 * Counts the request against every bucket its route declares and refuses the
 * first exhausted one with 429 and SPEC.md 7.3's four headers. Runs after
 * authentication so the organization is known, and before the route's input is
 * validated, so a malformed request still counts. `perOrg.tableFor` gives an
 * organization's own table (its plan's tier in the Cloud edition), and `perOrg.orgLimits`
 * the figures the platform owner set for it, which replace single buckets of that table.
 */
export function installRateLimits(
  app: FastifyInstance,
  limiter: RateLimiter,
  table: BucketTable,
  metrics?: Pick<Metrics, 'rateLimited'>,
  perOrg: { tableFor?: (orgId: string) => Promise<BucketTable>; orgLimits?: OrgRateLimits } = {},
): void {
  app.addHook('preValidation', async (request, reply) => {
    const declared = request.routeOptions.config?.rateLimit;
    if (!declared) return;
    const buckets: readonly BucketName[] = typeof declared === 'string' ? [declared] : declared;
    // The Cloud edition counts an organization's requests by its plan's tier.
    const { tableFor, orgLimits } = perOrg;
    const orgTable = request.actor && tableFor ? await tableFor(request.actor.orgId) : table;
    let tightest: RateDecision | null = null;
    const overrides = request.actor && orgLimits ? await orgLimits(request.actor.orgId) : null;
    for (const bucket of buckets) {
      const limits = rateKey(request, bucket).includes(':org:') ? orgTable : table;
      // Turned off by the operator (RATE_LIMITS): not counted, no headers.
      if (limits[bucket].limit === UNLIMITED) continue;
      // The platform owner's own figure for this organization wins over its plan's tier.
      const own = bucket === 'registration' ? undefined : overrides?.[bucket];
      const limit = own === undefined ? limits[bucket] : { ...limits[bucket], limit: own };
      const decision = await limiter.hit(rateKey(request, bucket), limit);
      if (!decision.allowed) {
        metrics?.rateLimited.inc({ bucket });
        setHeaders(reply, decision);
        throw new AppError('RATE_LIMITED', 'Too many requests; try again later', {
          retryAfter: (decision.resetAt - Date.now()) / 1000,
          details: { bucket },
        });
      }
      if (!tightest || decision.remaining < tightest.remaining) tightest = decision;
    }
    if (tightest) setHeaders(reply, tightest);
  });
}
