/**
 * The reader's instant search at 5,000 pages: the search.json service (section index,
 * grouping by page, snippets, JSON) answering 1,000 sequential queries after the index is
 * built, the size of the static export's index script gzipped, and the palette's code
 * gzipped (as served from the sources, and minified as `npm run build` writes it; the export
 * needs no other library), the memory the index retains and the CPU time per query.
 *
 * Pages: 50 folders of 100, about 1.7 KB each, an intro and four `##` sections of words
 * drawn with a strong skew from a 5,000-word vocabulary. Queries: 30 % a common word,
 * 30 % a random word, 20 % two words, 10 % a 4-letter prefix, 10 % a word with one typo.
 * Goals: p99 < 50 ms; export index < 1.5 MB gzipped; palette < 15 KB gzipped.
 */
import { gzipSync } from 'node:zlib';
import { transform } from 'esbuild';
import { paletteAsset } from '../src/render/palette.js';
import { exportSearchScript } from '../src/services/publishing/site/export-search.js';
import type { SitePage } from '../src/services/publishing/site/nav.js';
import { siteLinker } from '../src/services/publishing/site/response.js';
import { createSiteSearch } from '../src/services/publishing/site/site-search.js';
import { SiteSource } from '../src/services/publishing/site/source.js';
import { percentile, report } from './report.js';

const PAGES = 5_000;
const VOCABULARY = 5_000;
const QUERIES = 1_000;

function rng(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
}

export async function benchSiteSearch(): Promise<void> {
  const random = rng(42);
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'te', 'vo', 'xi', 'po', 'de', 'ga'];
  const words = Array.from({ length: VOCABULARY }, (_, i) => {
    let w = '';
    for (let n = i + 1; n > 0; n = Math.floor(n / syllables.length)) w += syllables[n % syllables.length];
    return w.length < 4 ? `${w}ren` : w;
  });
  const word = () => words[Math.floor(VOCABULARY * random() ** 3)]!;
  const sentence = (n: number) => Array.from({ length: n }, word).join(' ') + '.';
  const pages: SitePage[] = [];
  const bodies = new Map<string, string>();
  for (let i = 0; i < PAGES; i++) {
    const path = `f${String(Math.floor(i / 100)).padStart(2, '0')}/p${String(i).padStart(4, '0')}.md`;
    const body =
      `${sentence(30)}\n\n` +
      Array.from({ length: 4 }, () => `## ${word()} ${word()}\n\n${sentence(25)} ${sentence(20)}\n`).join(
        '\n',
      );
    bodies.set(path, body);
    pages.push({
      id: String(i),
      path,
      title: `${word()} ${word()}`,
      description: '',
      sortOrder: i,
      contentHash: `h${i}`,
      updatedAt: '2026-11-28T00:00:00.000Z',
    });
  }
  const source = new SiteSource('live', null, 'bench', pages, 'Bench', {
    readBody: async (page) => bodies.get(page.path) ?? null,
    openUpload: async () => null,
  });
  for (const page of pages) await source.body(page);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const search = createSiteSearch();
  const linker = siteLinker('/p/bench/');
  const started = performance.now();
  await search.query('w', source, linker, words[0]!, 'latest');
  const buildMs = performance.now() - started;
  gc?.();
  // What the index retains (the page index and the sections kept with it), over the bodies already read.
  const retained = process.memoryUsage().heapUsed - heapBefore;

  const query = (k: number): string => {
    const r = k % 10;
    if (r < 3) return words[Math.floor(random() * 50)]!;
    if (r < 6) return words[Math.floor(random() * VOCABULARY)]!;
    if (r < 8) return `${word()} ${word()}`;
    if (r < 9) return word().slice(0, 4);
    const w = words[Math.floor(random() * VOCABULARY)]!;
    return w.length > 5 ? `${w.slice(0, 2)}${w[3]}${w[2]}${w.slice(4)}` : w;
  };
  for (let k = 0; k < 50; k++) await search.query('w', source, linker, query(k), 'latest');
  const samples: number[] = [];
  const cpu: number[] = [];
  for (let k = 0; k < QUERIES; k++) {
    const q = query(k);
    const t = performance.now();
    const c = process.cpuUsage();
    JSON.stringify(await search.query('w', source, linker, q, 'latest'));
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    samples.push(performance.now() - t);
  }

  const script = await exportSearchScript(
    pages.map((page) => ({ page, body: bodies.get(page.path)! })),
    (page) => page.path.replace(/\.md$/, '.html'),
  );
  const gz = (text: string) => gzipSync(text, { level: 9 }).length;
  const minified = async (text: string, loader: 'js' | 'css') =>
    (await transform(text, { minify: true, loader, charset: 'utf8' })).code;
  const palette = paletteAsset('palette.js').body + paletteAsset('palette.css').body;
  const paletteMin =
    (await minified(paletteAsset('palette.js').body, 'js')) +
    (await minified(paletteAsset('palette.css').body, 'css'));
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  report('site-search', [
    { figure: 'index build, 5,000 pages (first query)', value: `${buildMs.toFixed(0)} ms` },
    {
      figure: 'search.json service, p50 / p99',
      value: `${percentile(samples, 50).toFixed(1)} / ${percentile(samples, 99).toFixed(1)} ms`,
      goal: 'p99 < 50 ms',
    },
    {
      figure: 'search.json service, CPU per query p50 / p99',
      value: `${percentile(cpu, 50).toFixed(1)} / ${percentile(cpu, 99).toFixed(1)} ms`,
    },
    {
      figure: `index retained in memory${gc ? '' : ' (run with --expose-gc for a steady figure)'}`,
      value: `${(retained / 1024 ** 2).toFixed(1)} MB`,
    },
    {
      figure: 'export index script, gzipped (raw)',
      value: `${kb(gz(script))} (${kb(script.length)})`,
      goal: '< 1.5 MB gzipped',
    },
    {
      figure: 'palette js + css gzipped, as served / minified',
      value: `${kb(gz(palette))} / ${kb(gz(paletteMin))}`,
      goal: '< 15 KB',
    },
  ]);
}
