import type { Actor } from '../domain/actor.js';
import type { BucketName } from '../ratelimit/buckets.js';
import type { Surface } from './security.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling, resolved once per request; null when anonymous. */
    actor: Actor | null;
    /** The nonce for this response's inline script and style (HTML surfaces). */
    cspNonce: string;
  }
  interface FastifyContextConfig {
    /** The rate-limit buckets this route counts against. */
    rateLimit?: BucketName | readonly BucketName[];
    /** Which Content-Security-Policy the response gets; `api` by default. */
    surface?: Surface;
    /**
     * `none`: the route needs no caller, so credentials sent to it are not read
     * and a stale token or cookie cannot make it fail (health, sign-in, webhooks).
     */
    auth?: 'none';
  }
}

export {};
