/**
 * PostgreSQL search on a 5,000-page workspace for words that every page holds: the case
 * where ranking cost grows with the number of matches. A real Folio on PostgreSQL (its own
 * schema of BENCH_DATABASE_URL or TEST_DATABASE_URL); the documents are written straight
 * into the search index, shaped like `bench/large.ts`'s pages (a title naming the section
 * and page, about 1.7 KB of prose) with a few words of a skewed vocabulary mixed in so
 * pages differ in how often they use a word. Each query is timed at the index and over
 * HTTP on loopback, sequentially.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { configFrom } from '../src/config.js';
import { createFolio, type Folio } from '../src/main.js';
import type { SearchDocument } from '../src/search/index.js';
import { createPgSchema } from '../test/helpers/pg-schema.js';
import { jsonClient, registerBenchUser } from './fixture.js';
import { type Figure, percentile, report } from './report.js';

const PG_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;
const PAGES = Number(process.env.BENCH_PAGES ?? 5000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);

const pad = (i: number) => String(i).padStart(3, '0');
const LOREM = 'Folio keeps the documentation of a team in plain files that every reader can search. ';
const EXTRA = 'install configure deploy release guide reference tutorial migrate backup restore'.split(' ');

/** Page `i`: the large benchmark's shape, plus a page-dependent number of extra words. */
function documentFor(workspaceId: string, i: number): SearchDocument {
  const title = `Section ${pad(Math.floor(i / 100))} page ${pad(i % 100)}`;
  const extra = Array.from({ length: 1 + (i % 7) }, (_, k) => EXTRA[(i * 7 + k * 3) % EXTRA.length]).join(
    ' ',
  );
  return {
    page_id: `${workspaceId}-${i}`,
    workspace_id: workspaceId,
    path: `section-${pad(Math.floor(i / 100))}/page-${pad(i % 100)}.md`,
    title: i % 250 === 0 ? `${title}: searching the documentation` : title,
    description: '',
    tags: [],
    body: `# ${title}\n\n${LOREM.repeat(10)}${extra}\n\n${LOREM.repeat(10)}`,
    status: 'published',
    restricted: false,
  };
}

async function seed(folio: Folio, workspaceId: string): Promise<void> {
  for (let start = 0; start < PAGES; start += 500) {
    const docs = Array.from({ length: Math.min(500, PAGES - start) }, (_, k) =>
      documentFor(workspaceId, start + k),
    );
    await folio.store.db.transaction().execute((trx) => folio.runtime.searchIndex.upsertMany(trx, docs));
  }
}

/**
 * The PostgreSQL server processes serving Folio's pool: asked for by enough queries at
 * once that every pooled connection answers. PostgreSQL runs on this machine, so their
 * CPU time can be read from /proc; it moves far less than wall time when other work
 * shares the cores.
 */
async function poolBackends(folio: Folio): Promise<number[]> {
  const pids = await Promise.all(
    Array.from({ length: 30 }, () =>
      sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.02)`.execute(folio.store.db),
    ),
  );
  return [...new Set(pids.map((r) => Number(r.rows[0]!.pid)))];
}

/** User + system CPU milliseconds of `pids` so far (0 for one that is gone or unreadable). */
function cpuMs(pids: readonly number[]): number {
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  let total = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      // not on this machine's /proc: the figure reads 0
    }
  }
  return total;
}

async function latencies(
  queries: readonly string[],
  fn: (q: string) => Promise<unknown>,
  backends: readonly number[],
) {
  for (let i = 0; i < 30; i++) await fn(queries[i % queries.length]!); // warm-up
  const samples: number[] = [];
  const cpu0 = cpuMs(backends);
  for (let i = 0; i < QUERIES; i++) {
    const t0 = performance.now();
    await fn(queries[i % queries.length]!);
    samples.push(performance.now() - t0);
  }
  const cpu = (cpuMs(backends) - cpu0) / QUERIES;
  return `${percentile(samples, 50).toFixed(2)} / ${percentile(samples, 99).toFixed(2)} ms (PostgreSQL CPU ${cpu.toFixed(2)} ms a query)`;
}

/** `npm run bench search-pg`: needs BENCH_DATABASE_URL or TEST_DATABASE_URL. */
export async function benchSearchPg(): Promise<void> {
  if (!PG_URL) {
    console.log('\n(search-pg skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-search-pg-'));
  const pg = await createPgSchema(PG_URL);
  const config = configFrom({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    BACKUP_INTERVAL_HOURS: '0',
    DATABASE_URL: PG_URL,
  });
  const unlimited = { limit: 1_000_000_000 };
  const folio = await createFolio(config, {
    rateLimits: { search: unlimited, registration: unlimited, auth: unlimited, contentWrite: unlimited },
    pgSchema: pg.schema,
  });
  const base = (await folio.listen()).replace('0.0.0.0', '127.0.0.1');
  try {
    const call = jsonClient(base);
    const token = await registerBenchUser(call);
    const ws = await call('POST', '/api/v1/workspaces', token, { name: 'Bench', slug: 'bench-pg' });
    const id = ws.id as string;
    await seed(folio, id);
    await sql`analyze search_documents`.execute(folio.store.db);
    const backends = await poolBackends(folio);
    const figures: Figure[] = [];
    const sets: Array<[string, string[]]> = [
      ['a word of every body ("documentation", "search", "reader")', ['documentation', 'search', 'reader']],
      ['a word of every title ("section")', ['section']],
      ['two words of every page ("team files")', ['team files']],
      ['a word of 2,000 of the pages ("install", "backup")', ['install', 'backup']],
    ];
    for (const [label, queries] of sets) {
      const index = await latencies(
        queries,
        (q) => folio.runtime.searchIndex.query({ workspaceId: id, q, limit: 20 }),
        backends,
      );
      const http = await latencies(
        queries,
        (q) => call('GET', `/api/v1/workspaces/${id}/search?q=${encodeURIComponent(q)}&limit=20`, token),
        backends,
      );
      figures.push({
        figure: `${PAGES} pages, ${label}: index p50 / p99`,
        value: index,
        goal: 'p99 < 20 ms',
      });
      figures.push({ figure: `${PAGES} pages, ${label}: HTTP p50 / p99`, value: http });
    }
    const top = await folio.runtime.searchIndex.query({ workspaceId: id, q: 'documentation', limit: 5 });
    figures.push({
      figure: '"documentation": total; first results',
      value: `${top.total}; ${top.results.map((r) => r.title).join(' | ')}`,
    });
    report(`search-pg (${QUERIES} queries per figure, limit 20)`, figures);
    if (process.env.BENCH_KEEP_SCHEMA) console.log(`schema kept: ${pg.schema}`);
  } finally {
    await folio.close();
    if (!process.env.BENCH_KEEP_SCHEMA) await pg.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
