/**
 * Page save latency over the HTTP API: a real Folio (SQLite, fresh DATA_DIR)
 * on loopback, one user, sequential requests. Each save is a PUT with the
 * previous content_hash, so it does the full write path: lock, hash check,
 * temp file + fsync + rename + directory fsync, then one transaction for the
 * row, the activity entry and the search document. The server runs in this
 * process (so the rate limits can be lifted); the client's own cost is
 * included, which makes the figures conservative.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configFrom } from '../src/config.js';
import { createFolio } from '../src/main.js';
import { percentile, report } from './report.js';
import { jsonClient, registerBenchUser } from './fixture.js';

const SAVES = Number(process.env.BENCH_SAVES ?? 2000);
const CREATES = Number(process.env.BENCH_CREATES ?? 200);

/** About 2 KB of Markdown with a few links, different on every save. */
const body = (n: number): string =>
  `# Release notes ${n}\n\n` +
  Array.from(
    { length: 12 },
    (_, i) => `- Item ${i} of save ${n}: see [[guides/setup]] and [the FAQ](faq.md).`,
  ).join('\n') +
  `\n\n${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(20)}\n`;

async function timed<T>(samples: number[], fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const result = await fn();
  samples.push(performance.now() - t0);
  return result;
}

export async function benchPages(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-pages-'));
  const config = configFrom({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  const unlimited = { limit: 1_000_000_000 };
  const folio = await createFolio(config, {
    rateLimits: { contentRead: unlimited, contentWrite: unlimited, registration: unlimited, auth: unlimited },
  });
  const base = (await folio.listen()).replace('0.0.0.0', '127.0.0.1');
  try {
    const call = jsonClient(base);
    const token = await registerBenchUser(call);
    const slug = ((await call('GET', '/api/v1/workspaces', token)).data as Array<{ slug: string }>)[0]!.slug;
    const page = (p: string) => `/api/v1/content/${slug}/${p}`;

    const creates: number[] = [];
    for (let i = 0; i < CREATES; i++) {
      await timed(creates, () =>
        call('POST', page(`notes/n${i}.md`), token, { title: `Note ${i}`, body: body(i) }),
      );
    }

    let hash = (await call('GET', page('notes/n0.md'), token)).content_hash as string;
    const saves: number[] = [];
    // A short warm-up so JIT and caches settle before the measured saves.
    for (let i = 0; i < 50 + SAVES; i++) {
      const sample: number[] = i < 50 ? [] : saves;
      const saved = await timed(sample, () =>
        call('PUT', page('notes/n0.md'), token, { body: body(i + 1), lastKnownHash: hash }),
      );
      hash = saved.content_hash as string;
    }

    const reads: number[] = [];
    for (let i = 0; i < SAVES; i++)
      await timed(reads, () => call('GET', page(`notes/n${i % CREATES}.md`), token));

    const ms = (v: number) => `${v.toFixed(1)} ms`;
    report('pages', [
      {
        figure: `page save (PUT, ${SAVES} sequential), p50`,
        value: ms(percentile(saves, 50)),
        goal: '< 30 ms',
      },
      { figure: 'page save, p99', value: ms(percentile(saves, 99)), goal: '< 30 ms' },
      { figure: 'page save, max', value: ms(Math.max(...saves)) },
      { figure: `page create (POST, ${CREATES}), p50`, value: ms(percentile(creates, 50)) },
      { figure: 'page create, p99', value: ms(percentile(creates, 99)) },
      { figure: `page read (GET, ${SAVES}), p50`, value: ms(percentile(reads, 50)) },
      { figure: 'page read, p99', value: ms(percentile(reads, 99)) },
    ]);
  } finally {
    await folio.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
