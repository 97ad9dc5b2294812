/**
 * Search latency: a real Folio (fresh DATA_DIR) with a 1,000-page and a 10,000-page
 * workspace whose documents are written straight into the search index (the page files
 * play no part in a query). Each query set is timed three ways, sequentially: the index
 * alone, the service call (adds the workspace and permission lookups) and over HTTP on
 * loopback (adds routing, auth, rate limiting and JSON; the client's own cost is included,
 * which makes those figures conservative). Runs on SQLite, and on PostgreSQL too when
 * BENCH_DATABASE_URL or TEST_DATABASE_URL is set.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configFrom } from '../src/config.js';
import { createFolio, type Folio } from '../src/main.js';
import type { SearchDocument } from '../src/search/index.js';
import { createPgSchema } from '../test/helpers/pg-schema.js';
import { type Figure, percentile, report } from './report.js';
import { registerBenchUser } from './fixture.js';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 1000);
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const PG_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;

/** Deterministic PRNG (mulberry32) so every run indexes and queries the same text. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES =
  'ka lo mi ne ru sa ti vo ze pa de fi gu ho ja ly mo nu pe qua ri se tu ve wa xo yu zi bra cle dro'.split(
    ' ',
  );
const random = rng(42);
/** 5,000 pseudo-words; drawn with a Zipf-like skew so a few are common, as in real prose. */
const VOCAB = Array.from({ length: 5000 }, (_, i) => {
  let w = '';
  for (let n = 2 + (i % 3); n > 0; n--) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
  return `${w}${i % 7 === 0 ? 'ing' : ''}`;
});
const word = () => VOCAB[Math.floor(VOCAB.length * random() ** 3)]!;
const words = (n: number) => Array.from({ length: n }, word).join(' ');

/** Page `i` of a synthetic workspace: a few hundred words of skewed vocabulary, a third drafts. */
export function documentFor(workspaceId: string, i: number): SearchDocument {
  const paragraphs = Array.from({ length: 4 + (i % 5) }, () => words(60 + Math.floor(random() * 60)));
  return {
    page_id: `${workspaceId}-${i}`,
    workspace_id: workspaceId,
    path: `section-${i % 40}/page-${i}.md`,
    title: words(3 + (i % 4)),
    description: words(12),
    tags: [word(), word()],
    body: paragraphs.map((p) => `${p}.`).join('\n\n'),
    status: i % 3 === 0 ? 'draft' : 'published',
    restricted: false,
  };
}

/** A realistic mix: common words (thousands of matches), rarer ones, pairs and prefixes. */
export function queryFor(i: number): string {
  switch (i % 10) {
    case 0:
    case 1:
    case 2:
      return VOCAB[i % 50]!;
    case 3:
    case 4:
    case 5:
      return word();
    case 6:
    case 7:
      return `${word()} ${word()}`;
    case 8:
      return word().slice(0, 4);
    default:
      return `${VOCAB[i % 50]} ${word().slice(0, 3)}`;
  }
}

async function seed(folio: Folio, workspaceId: string, count: number): Promise<number> {
  const t0 = performance.now();
  for (let start = 0; start < count; start += 500) {
    await folio.store.db.transaction().execute(async (trx) => {
      for (let i = start; i < Math.min(count, start + 500); i++) {
        await folio.runtime.searchIndex.upsert(trx, documentFor(workspaceId, i));
      }
    });
  }
  return performance.now() - t0;
}

interface Latency {
  p50: number;
  p99: number;
  /** This process's CPU time per query: on a machine shared with other work it moves far less than wall time. */
  cpuP50: number;
  cpuP99: number;
}

async function measure(fn: (q: string) => Promise<unknown>): Promise<Latency> {
  for (let i = 0; i < 50; i++) await fn(queryFor(i)); // warm-up
  const samples: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const q = queryFor(i);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn(q);
    samples.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return {
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    cpuP50: percentile(cpu, 50),
    cpuP99: percentile(cpu, 99),
  };
}

async function benchOn(name: 'sqlite' | 'postgres'): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-search-'));
  const pg = name === 'postgres' && PG_URL ? await createPgSchema(PG_URL) : null;
  const config = configFrom({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    BACKUP_INTERVAL_HOURS: '0',
    ...(pg ? { DATABASE_URL: PG_URL } : {}),
  });
  const unlimited = { limit: 1_000_000_000 };
  const folio = await createFolio(config, {
    rateLimits: { search: unlimited, registration: unlimited, auth: unlimited, contentWrite: unlimited },
    ...(pg ? { pgSchema: pg.schema } : {}),
  });
  const base = (await folio.listen()).replace('0.0.0.0', '127.0.0.1');
  try {
    const call = async (method: string, url: string, token?: string, payload?: unknown, retry = true) => {
      // Client and server share this process's event loop, and the measuring loops keep it
      // busy, so a keep-alive socket can be reused just as the server times it out: a GET
      // that meets that race is retried once (the warm-up absorbs it before measuring).
      const res = await fetch(base + url, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      }).catch((err: unknown) => {
        const reset = (err as { cause?: { code?: string } }).cause?.code === 'ECONNRESET';
        if (reset && retry && method === 'GET') return null;
        throw err;
      });
      if (!res) return call(method, url, token, payload, false);
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const token = await registerBenchUser(call);
    const actor = await folio.services.authenticate({ bearer: token });
    if (!actor) throw new Error('could not authenticate the bench user');

    const figures: Figure[] = [];
    for (const size of SIZES) {
      const ws = await call('POST', '/api/v1/workspaces', token, {
        name: `Bench ${size}`,
        slug: `bench-${size}`,
      });
      const id = ws.id as string;
      const indexMs = await seed(folio, id, size);
      figures.push({
        figure: `${size} pages: index time`,
        value: `${(indexMs / 1000).toFixed(1)} s (${((size / indexMs) * 1000).toFixed(0)} pages/s)`,
      });
      const goal = size === 1_000 ? '< 8 ms p99 (DocPlatform, 1,000 pages)' : '';
      const index = await measure((q) => folio.runtime.searchIndex.query({ workspaceId: id, q, limit: 20 }));
      const service = await measure((q) => folio.services.search.search(actor, id, { q, limit: 20 }));
      const http = await measure((q) =>
        call('GET', `/api/v1/workspaces/${id}/search?q=${encodeURIComponent(q)}&limit=20`, token),
      );
      for (const [how, r] of [
        ['index', index],
        ['service call', service],
        ['HTTP', http],
      ] as const) {
        figures.push({
          figure: `${size} pages: ${how} p50 / p99`,
          value: `${r.p50.toFixed(2)} / ${r.p99.toFixed(2)} ms`,
          goal,
        });
      }
      // On SQLite the whole query runs on this process's thread, so its CPU time is the
      // query's own cost; on PostgreSQL the work happens in the server, out of sight.
      if (name === 'sqlite') {
        figures.push({
          figure: `${size} pages: index CPU time p50 / p99`,
          value: `${index.cpuP50.toFixed(2)} / ${index.cpuP99.toFixed(2)} ms`,
          goal,
        });
      }
    }
    report(`search on ${name} (${QUERIES} queries per figure, limit 20)`, figures);
  } finally {
    await folio.close();
    await pg?.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `npm run bench search`: SQLite always, PostgreSQL when a URL is given. */
export async function benchSearch(): Promise<void> {
  await benchOn('sqlite');
  if (PG_URL) await benchOn('postgres');
  else console.log('\n(search on PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
}
