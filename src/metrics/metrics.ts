/**
 * Folio's Prometheus instruments (FF_METRICS). Every label value comes from a small fixed
 * set (route patterns, methods, status codes, bucket and tool names, results), never a
 * user, a path or a workspace, so the number of series stays bounded.
 *
 * With metrics off every instrument is a no-op and prom-client is never loaded, so a
 * Community instance pays nothing for them; call sites never ask whether metrics are on.
 */

import type * as PromClient from 'prom-client';
import type { Actor } from '../domain/actor.js';
import { requireMetricsReader } from '../domain/policy.js';
import { importPackage } from '../lib/import-package.js';

type Labels<L extends string> = Partial<Record<L, string | number>>;

export interface Count<L extends string = never> {
  inc(labels?: Labels<L>): void;
}

export interface Timing<L extends string> {
  observe(labels: Labels<L>, seconds: number): void;
}

export interface Level {
  inc(): void;
  dec(): void;
}

export interface Metrics {
  /** False when FF_METRICS is off and everything below does nothing. */
  readonly enabled: boolean;
  http: {
    requests: Count<'route' | 'method' | 'status'>;
    duration: Timing<'route' | 'method'>;
    inFlight: Level;
  };
  pageChanges: Count<'change'>;
  search: Timing<'scope'>;
  sync: {
    runs: Count<'trigger' | 'result'>;
    duration: Timing<'result'>;
    pushFailures: Count;
  };
  mailFailures: Count;
  rateLimited: Count<'bucket'>;
  webhookDeliveries: Count<'result'>;
  site: {
    requests: Count<'status'>;
    renderCache: Count<'result'>;
  };
  mcpToolCalls: Count<'tool' | 'result'>;
  /**
   * A gauge read when scraped (WebSocket connections, open conflicts, mail backlog), so
   * nothing has to keep it current.
   */
  gauge(name: string, help: string, read: () => number | Promise<number>): void;
  /** The exposition: Prometheus text and its content type. */
  scrape(): Promise<{ contentType: string; text: string }>;
}

const noop = { inc() {}, dec() {}, observe() {} };

/** Metrics off: instruments that do nothing. */
export const NO_METRICS: Metrics = {
  enabled: false,
  http: { requests: noop, duration: noop, inFlight: noop },
  pageChanges: noop,
  search: noop,
  sync: { runs: noop, duration: noop, pushFailures: noop },
  mailFailures: noop,
  rateLimited: noop,
  webhookDeliveries: noop,
  site: { requests: noop, renderCache: noop },
  mcpToolCalls: noop,
  gauge() {},
  async scrape() {
    return { contentType: 'text/plain; version=0.0.4; charset=utf-8', text: '' };
  },
};

/** Request and query durations: from a cached page (a millisecond) to a slow git host. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Sync runs talk to a remote: seconds to minutes. */
const SYNC_SECONDS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** The instruments on a registry of this instance's own, with Node's process metrics. */
export async function createMetrics(): Promise<Metrics> {
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } =
    await importPackage<typeof PromClient>('prom-client');
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: 'folio_' });

  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Counter<L>({ name, help, labelNames, registers });
  const histogram = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets = SECONDS,
  ): Timing<L> => {
    const h = new Histogram<L>({ name, help, labelNames, buckets, registers });
    return { observe: (labels, seconds) => h.observe(labels, seconds) };
  };

  return {
    enabled: true,
    http: {
      requests: counter('folio_http_requests_total', 'HTTP requests by route pattern, method and status', [
        'route',
        'method',
        'status',
      ]),
      duration: histogram('folio_http_request_duration_seconds', 'HTTP request duration', [
        'route',
        'method',
      ]),
      inFlight: new Gauge({
        name: 'folio_http_requests_in_flight',
        help: 'HTTP requests being answered',
        registers,
      }),
    },
    pageChanges: counter('folio_page_changes_total', 'Page writes, moves and deletes made on this instance', [
      'change',
    ]),
    search: histogram('folio_search_duration_seconds', 'Full-text queries and their duration', ['scope']),
    sync: {
      runs: counter('folio_git_sync_runs_total', 'Git sync runs by trigger and result', [
        'trigger',
        'result',
      ]),
      duration: histogram(
        'folio_git_sync_duration_seconds',
        'Git sync run duration',
        ['result'],
        SYNC_SECONDS,
      ),
      pushFailures: counter('folio_git_push_failures_total', 'Pushes to a remote that failed'),
    },
    mailFailures: counter('folio_mail_failures_total', 'Mail sends that failed (each attempt)'),
    rateLimited: counter('folio_rate_limited_total', 'Requests refused by a rate limit, by bucket', [
      'bucket',
    ]),
    webhookDeliveries: counter('folio_webhook_deliveries_total', 'Outbound webhook deliveries by result', [
      'result',
    ]),
    site: {
      requests: counter('folio_site_requests_total', 'Published-site requests by status', ['status']),
      renderCache: counter('folio_site_render_cache_total', 'Published documents by cache result', [
        'result',
      ]),
    },
    mcpToolCalls: counter('folio_mcp_tool_calls_total', 'MCP tool calls by tool and result', [
      'tool',
      'result',
    ]),
    gauge(name, help, read) {
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          this.set(await read());
        },
      });
    },
    async scrape() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}

/**
 * The exposition for a signed-in caller of `/metrics`: the platform owner only. The METRICS_PORT listener, bound to loopback, uses `scrape` without a caller.
 */
export function scrapeFor(metrics: Metrics, actor: Actor): Promise<{ contentType: string; text: string }> {
  requireMetricsReader(actor);
  return metrics.scrape();
}
