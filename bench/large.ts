/**
 * A 5,000-page workspace over HTTP: the page tree, a published page's size and a search
 * for a word every page holds. A real Folio (SQLite, fresh DATA_DIR) on loopback; the
 * pages are written as files (50 folders of 100) and indexed the way files found on
 * disk are. Requests are sequential, so the figures are latencies, not throughput.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configFrom } from '../src/config.js';
import { createFolio } from '../src/main.js';
import { jsonClient, registerBenchUser } from './fixture.js';
import { percentile, report } from './report.js';

const FOLDERS = 50;
const PER_FOLDER = 100;
const REQUESTS = Number(process.env.BENCH_LARGE_REQUESTS ?? 300);

const pad = (i: number) => String(i).padStart(3, '0');
const LOREM = 'Folio keeps the documentation of a team in plain files that every reader can search. ';

async function timed(samples: number[], fn: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  await fn();
  samples.push(performance.now() - t0);
}

export async function benchLarge(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-large-'));
  const config = configFrom({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    BACKUP_INTERVAL_HOURS: '0',
  });
  const unlimited = { limit: 1_000_000_000 };
  const folio = await createFolio(config, {
    rateLimits: {
      contentRead: unlimited,
      contentWrite: unlimited,
      search: unlimited,
      publishedDocs: unlimited,
      registration: unlimited,
      auth: unlimited,
    },
  });
  const base = (await folio.listen()).replace('0.0.0.0', '127.0.0.1');
  try {
    const call = jsonClient(base);
    const token = await registerBenchUser(call);
    const ws = (
      (await call('GET', '/api/v1/workspaces', token)).data as Array<{ id: string; slug: string }>
    )[0]!;
    const root = path.join(dataDir, 'workspaces', ws.id);
    for (let f = 0; f < FOLDERS; f++) {
      fs.mkdirSync(path.join(root, `section-${pad(f)}`), { recursive: true });
      for (let p = 0; p < PER_FOLDER; p++) {
        const title = `Section ${pad(f)} page ${pad(p)}`;
        fs.writeFileSync(
          path.join(root, `section-${pad(f)}`, `page-${pad(p)}.md`),
          `---\ntitle: ${title}\nstatus: published\n---\n\n# ${title}\n\n${LOREM.repeat(20)}\n`,
        );
      }
    }
    // Reading a page new on disk has the index catch up with every file.
    const t0 = performance.now();
    await call('GET', `/api/v1/content/${ws.slug}/section-000/page-000.md`, token);
    const indexMs = performance.now() - t0;
    await call('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, token, { public_site: true });

    const treeUrl = `${base}/api/v1/content/${ws.slug}/tree`;
    const auth = { authorization: `Bearer ${token}` };
    const plain = await fetch(treeUrl, { headers: { ...auth, 'accept-encoding': 'identity' } });
    const treeBytes = (await plain.arrayBuffer()).byteLength;
    const etag = plain.headers.get('etag') ?? '';
    const zipped = await fetch(treeUrl, { headers: { ...auth, 'accept-encoding': 'gzip' } });
    const gzipBytes = Number(zipped.headers.get('content-length') ?? (await zipped.arrayBuffer()).byteLength);

    const tree: number[] = [];
    const revalidated: number[] = [];
    const search: number[] = [];
    for (let i = 0; i < 20; i++) await fetch(treeUrl, { headers: auth }).then((r) => r.arrayBuffer());
    for (let i = 0; i < REQUESTS; i++) {
      await timed(tree, () => fetch(treeUrl, { headers: auth }).then((r) => r.arrayBuffer()));
      await timed(revalidated, () =>
        fetch(treeUrl, { headers: { ...auth, 'if-none-match': etag } }).then((r) => r.arrayBuffer()),
      );
      await timed(search, () => call('GET', `/api/v1/workspaces/${ws.id}/search?q=documentation`, token));
    }
    const page = await fetch(`${base}/p/${ws.slug}/section-025/page-050`);
    const html = await page.text();
    if (page.status !== 200) throw new Error(`published page: ${page.status}`);

    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const kb = (v: number) => `${(v / 1024).toFixed(0)} KB`;
    report(`large workspace (${FOLDERS * PER_FOLDER} pages)`, [
      { figure: 'files on disk indexed by the first read', value: ms(indexMs) },
      { figure: 'published page HTML', value: kb(html.length), goal: '< 60 KB' },
      { figure: 'tree JSON / gzipped', value: `${kb(treeBytes)} / ${kb(gzipBytes)}` },
      { figure: `tree (GET, gzip, ${REQUESTS} sequential), p50`, value: ms(percentile(tree, 50)) },
      { figure: 'tree, p99', value: ms(percentile(tree, 99)), goal: '< 50 ms' },
      { figure: 'tree revalidated (304), p99', value: ms(percentile(revalidated, 99)) },
      { figure: 'search for a word in every page, p50', value: ms(percentile(search, 50)) },
      { figure: 'search for a word in every page, p99', value: ms(percentile(search, 99)), goal: '< 20 ms' },
    ]);
  } finally {
    await folio.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
