import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { Metrics } from '../metrics/metrics.js';
import { type BucketName, type BucketTable, orgRateKey } from '../ratelimit/buckets.js';
import type { RateDecision, RateLimiter } from '../ratelimit/limiter.js';
import { UNLIMITED } from '../ratelimit/operator-limits.js';
import { limitsOfOrg, type PerOrgLimits } from '../ratelimit/org-limits.js';
import './fastify-types.js';

/** The bucket key: per organization when authenticated, per IP otherwise. */
export function rateKey(request: FastifyRequest, bucket: BucketName): string {
  // Registration is counted per IP even for a signed-in caller.
  if (request.actor && bucket !== 'registration') return orgRateKey(bucket, request.actor.orgId);
  return `${bucket}:ip:${request.ip}`;
}

function setHeaders(reply: FastifyReply, decision: RateDecision): void {
  reply.header('X-RateLimit-Limit', String(decision.limit));
  reply.header('X-RateLimit-Remaining', String(decision.remaining));
  reply.header('X-RateLimit-Reset', String(Math.ceil(decision.resetAt / 1000)));
}

/**
 * Counts the request against every bucket its route declares and refuses the
 * first exhausted one with 429 and the API's four headers. Runs after
 * authentication so the organization is known, and before the route's input is
 * validated, so a malformed request still counts. A signed-in caller's organization meets
 * its own limits (`perOrg`: its plan's tier and the platform owner's figures, Cloud edition).
 */
export function installRateLimits(
  app: FastifyInstance,
  limiter: RateLimiter,
  table: BucketTable,
  metrics?: Pick<Metrics, 'rateLimited'>,
  perOrg: PerOrgLimits = {},
): void {
  app.addHook('preValidation', async (request, reply) => {
    const declared = request.routeOptions.config?.rateLimit;
    if (!declared) return;
    const buckets: readonly BucketName[] = typeof declared === 'string' ? [declared] : declared;
    const ofOrg = request.actor ? await limitsOfOrg(request.actor.orgId, table, perOrg) : null;
    let tightest: RateDecision | null = null;
    for (const bucket of buckets) {
      const key = rateKey(request, bucket);
      const limit = ofOrg && key.includes(':org:') ? ofOrg(bucket) : table[bucket];
      // Turned off by the operator (RATE_LIMITS): not counted, no headers.
      if (limit.limit === UNLIMITED) continue;
      const decision = await limiter.hit(key, limit);
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
