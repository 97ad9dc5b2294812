import type * as IoRedis from 'ioredis';
import fs from 'node:fs';
import type { Redis } from 'ioredis';
import path from 'node:path';
import type { Config } from './config.js';
import { type EventBus, InProcessBus } from './events/bus.js';
import { RedisBus } from './events/redis-bus.js';
import { createLogger, type Logger } from './logger.js';
import { countPageChanges } from './metrics/page-changes.js';
import { createMetrics, type Metrics, NO_METRICS } from './metrics/metrics.js';
import { registerStoreGauges } from './metrics/store-gauges.js';
import {
  type BucketLimit,
  type BucketName,
  type BucketTable,
  bucketTable,
  orgRateKey,
} from './ratelimit/buckets.js';
import { MemoryRateLimiter, type RateLimiter, RedisRateLimiter } from './ratelimit/limiter.js';
import { UNLIMITED } from './ratelimit/operator-limits.js';
import { limitsOfOrg, type OrgQuota, type PerOrgLimits } from './ratelimit/org-limits.js';
import { planBucketTables } from './ratelimit/plan-tiers.js';
import type { PlanId } from './domain/plans.js';
import { type Clock, systemClock } from './lib/clock.js';
import type { TxtResolver } from './services/publishing/index.js';
import { createServices, type Quota, type Services, type ServicesRuntime } from './services/index.js';
import { openStore, type Store } from './store/database.js';
import { databaseStartError, redisStartError } from './start-up-error.js';
import type { WebhookOptions } from './services/index.js';
import { importPackage } from './lib/import-package.js';

export interface CoreOptions {
  logger?: Logger;
  clock?: Clock;
  /** Replaces some of the API's limits (tests use small ones). */
  rateLimits?: Partial<Record<BucketName, Partial<BucketLimit>>>;
  /** PostgreSQL schema to isolate this instance in (tests). */
  pgSchema?: string;
  /**
   * Answers the TXT lookups that verify custom domains (default: the system resolver via
   * `dns.promises.resolveTxt`). Tests pass canned answers; an operator could pass a
   * resolver bound to particular DNS servers.
   */
  txtResolver?: TxtResolver;
  /** Outbound webhook timing and DNS (tests use short waits and canned answers). */
  webhooks?: WebhookOptions;
  /** Quiet time before web edits are committed to git (default 1 s; tests change it). */
  gitCommitDebounceMs?: number;
}

/** Everything but the adapters: what the server and the CLI's commands share. */
export interface Core {
  config: Config;
  logger: Logger;
  store: Store;
  events: EventBus;
  /** The Redis connection (REDIS_URL), shared by the bus and the limiter; null without one. */
  redis: Redis | null;
  limiter: RateLimiter;
  buckets: BucketTable;
  /** The Cloud edition's bucket table per plan (null in the Community edition). */
  planBuckets: Readonly<Record<PlanId, BucketTable>> | null;
  clock: Clock;
  /** Spends a unit of a rate-limit bucket (adapters that count requests themselves: MCP). */
  quota: Quota;
  /** How one organization's limits differ from `buckets` (the Cloud edition's plan tiers and the platform owner's figures). */
  perOrg: PerOrgLimits;
  /** Spends a unit of an organization's bucket at its own limit (MCP tool calls, like HTTP requests). */
  orgQuota: OrgQuota;
  /** The capability facades adapters receive. */
  services: Services;
  /** Start-up and background work of the services; not for adapters. */
  runtime: ServicesRuntime;
  /** Prometheus instruments (no-ops unless FF_METRICS is on). */
  metrics: Metrics;
  close(): Promise<void>;
}

/** Opens the data directory, the database (migrated), the bus and the services. */
export async function createCore(config: Config, options: CoreOptions = {}): Promise<Core> {
  const logger = options.logger ?? createLogger(config.logLevel);
  fs.mkdirSync(config.dataDir, { recursive: true });

  const sqlitePath = path.join(config.dataDir, 'folio.db');
  let store: Store | undefined;
  try {
    store = await openStore({
      databaseUrl: config.databaseUrl,
      sqlitePath,
      ...(options.pgSchema ? { pgSchema: options.pgSchema } : {}),
    });
    await store.migrate();
  } catch (error) {
    await store?.close().catch(() => undefined);
    throw databaseStartError(error, { databaseUrl: config.databaseUrl, sqlitePath });
  }

  // ioredis is loaded only when Redis is configured.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, logger) : null;
  const metrics = config.metrics.enabled ? await createMetrics() : NO_METRICS;
  registerStoreGauges(metrics, store);
  const onListenerError = (error: unknown) => logger.error({ err: error }, 'event listener failed');
  const events: EventBus = redis
    ? await RedisBus.connect(redis, onListenerError)
    : new InProcessBus(onListenerError);
  countPageChanges(events, metrics);
  const limiter: RateLimiter = redis ? new RedisRateLimiter(redis) : new MemoryRateLimiter();
  // The operator's RATE_LIMITS, then a test's own.
  const buckets = bucketTable({ ...config.rateLimits, ...options.rateLimits });
  const overridden = new Set(Object.keys({ ...config.rateLimits, ...options.rateLimits }) as BucketName[]);
  const planBuckets = config.edition === 'cloud' ? planBucketTables(buckets, overridden) : null;

  const clock = options.clock ?? systemClock;
  const quota: Quota = async (bucket, key) =>
    buckets[bucket].limit === UNLIMITED || (await limiter.hit(key, buckets[bucket])).allowed;
  const { services, runtime } = await createServices({
    config,
    store,
    events,
    logger,
    clock,
    quota,
    metrics,
    ...(options.txtResolver ? { txtResolver: options.txtResolver } : {}),
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    ...(options.gitCommitDebounceMs !== undefined
      ? { gitCommitDebounceMs: options.gitCommitDebounceMs }
      : {}),
  });

  const { billing } = services;
  const perOrg: PerOrgLimits =
    billing && planBuckets
      ? {
          tableFor: async (orgId) => planBuckets[await billing.plans.tierOf(orgId)],
          orgLimits: services.cloud.adminOrgs.rateLimitsOf,
        }
      : {};
  const orgQuota: OrgQuota = async (bucket, orgId) => {
    const limit = (await limitsOfOrg(orgId, buckets, perOrg))(bucket);
    return limit.limit === UNLIMITED || (await limiter.hit(orgRateKey(bucket, orgId), limit)).allowed;
  };

  let closing: Promise<void> | null = null;
  return {
    config,
    logger,
    store,
    events,
    redis,
    limiter,
    buckets,
    planBuckets,
    clock,
    quota,
    perOrg,
    orgQuota,
    services,
    runtime,
    metrics,
    close() {
      closing ??= (async () => {
        await runtime.stop();
        await events.close();
        await limiter.close();
        redis?.disconnect();
        await store.close();
      })();
      return closing;
    },
  };
}

/**
 * Connects to REDIS_URL; a Redis that does not answer stops the start with a StartupError.
 * Connection errors after that are logged (ioredis reconnects by itself): without a
 * listener, ioredis would print each one to stderr as an "Unhandled error event".
 */
async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new (await importPackage<typeof IoRedis>('ioredis')).Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 2,
  });
  let connectionError: Error | undefined;
  const remember = (error: Error) => (connectionError ??= error);
  redis.on('error', remember);
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw redisStartError(connectionError ?? error, url);
  }
  redis.off('error', remember);
  redis.on('error', (error: Error) => logger.warn({ err: error }, 'Redis connection error'));
  return redis;
}
