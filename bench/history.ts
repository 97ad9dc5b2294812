/**
 * Page history: a real Folio (SQLite, fresh DATA_DIR) whose workspace repository holds a
 * page with COMMITS commits, interleaved with as many commits to other pages (written with
 * `git fast-import`, as a long-lived repository would have them). The figure is
 * `GET /api/v1/workspaces/:id/history?page=…&limit=50` over HTTP: the first 50 entries,
 * and the next 50 through the cursor. Each is timed RUNS times after a warm-up.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configFrom } from '../src/config.js';
import { runGit } from '../src/git/git.js';
import { pageHistory } from '../src/git/history.js';
import { createFolio } from '../src/main.js';
import { jsonClient, registerBenchUser } from './fixture.js';
import { percentile, report } from './report.js';

const COMMITS = Number(process.env.BENCH_HISTORY_COMMITS ?? 5000);
const RUNS = Number(process.env.BENCH_HISTORY_RUNS ?? 30);
const PAGE = 'guides/page.md';

const git = (cwd: string, args: string[], input?: string) =>
  execFileSync('git', args, { cwd, input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 }).toString();

/** A fast-import stream of 2 × COMMITS commits on `branch` after `parent`: the page, then another page, in turn. */
function historyStream(branch: string, parent: string, frontmatter: string): string {
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const start = 1_700_000_000;
  const parts: string[] = [];
  for (let i = 0; i < COMMITS * 2; i++) {
    const mine = i % 2 === 0;
    const file = mine ? PAGE : `other/p${i % 50}.md`;
    const text = mine
      ? `${frontmatter}\n# Page\n\nRevision ${i / 2}: ${'Some documentation text. '.repeat(8)}\n`
      : `---\ntitle: Other ${i}\n---\n\nText ${i}\n`;
    const who = i % 3 === 0 ? 'Bench <bench@example.com>' : 'Other Writer <other@example.com>';
    parts.push(
      `commit refs/heads/${branch}\nauthor ${who} ${start + i} +0000\ncommitter Folio <folio@localhost> ${start + i} +0000\n`,
      data(`docs: update ${mine ? 'Page' : `Other ${i}`}`),
      i === 0 ? `from ${parent}\n` : '',
      `M 100644 inline ${file}\n`,
      data(text),
    );
  }
  return parts.join('');
}

export async function benchHistory(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-history-'));
  const config = configFrom({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: path.join(root, 'data'),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    GIT_SYNC_INTERVAL: '0',
  });
  const unlimited = { limit: 1_000_000_000 };
  const folio = await createFolio(config, {
    rateLimits: { contentRead: unlimited, contentWrite: unlimited, registration: unlimited, auth: unlimited },
    gitCommitDebounceMs: 10,
  });
  const base = (await folio.listen()).replace('0.0.0.0', '127.0.0.1');
  try {
    const call = jsonClient(base);
    const token = await registerBenchUser(call);
    const ws = await call('POST', '/api/v1/workspaces', token, { name: 'Bench', slug: 'bench-history' });
    await call('POST', `/api/v1/content/bench-history/${PAGE}`, token, { title: 'Page', body: 'First' });
    const repo = path.join(root, 'data', 'workspaces', ws.id as string);
    // Wait for the page's own commit, then build the long history on top of it.
    const subject = () => {
      try {
        return git(repo, ['log', '--format=%s', '-1']);
      } catch {
        return ''; // no commit yet
      }
    };
    for (let i = 0; i < 400 && !subject().includes('create Page'); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const branch = git(repo, ['symbolic-ref', '--short', 'HEAD']).trim();
    const frontmatter =
      /^---\n[\s\S]*?\n---\n/.exec(fs.readFileSync(path.join(repo, PAGE), 'utf8'))?.[0] ?? '';
    const t0 = performance.now();
    git(
      repo,
      ['fast-import', '--quiet'],
      historyStream(branch, git(repo, ['rev-parse', 'HEAD']).trim(), frontmatter),
    );
    git(repo, ['reset', '-q', '--hard']);
    const built = performance.now() - t0;

    const url = `/api/v1/workspaces/${ws.id as string}/history?page=${PAGE}&limit=50`;
    const timed = async (u: string) => {
      const start = performance.now();
      const body = await call('GET', u, token);
      return { ms: performance.now() - start, body };
    };
    // The build above blocked this process's event loop for a while: the client's kept-alive
    // connection may have been closed meanwhile, so the warm-up call may need a second try.
    const first = await timed(url).catch(() => timed(url));
    if ((first.body.data as unknown[]).length !== 50) throw new Error('expected 50 entries');
    const next = `${url}&cursor=${first.body.next_cursor as string}`;
    const firstSamples: number[] = [];
    const nextSamples: number[] = [];
    // For scale on a busy machine: a route that reads only the database, the git read alone
    // (in process, no HTTP), and starting git at all.
    const baseSamples: number[] = [];
    const directSamples: number[] = [];
    const spawnSamples: number[] = [];
    const clock = async (work: () => Promise<unknown>) => {
      const start = performance.now();
      await work();
      return performance.now() - start;
    };
    for (let i = 0; i < RUNS; i++) {
      firstSamples.push((await timed(url)).ms);
      nextSamples.push((await timed(next)).ms);
      baseSamples.push((await timed(`/api/v1/workspaces/${ws.id as string}`)).ms);
      directSamples.push(await clock(() => pageHistory(repo, { rev: 'HEAD', path: PAGE, skip: 0 }, 50)));
      spawnSamples.push(await clock(() => runGit(repo, ['--version'])));
    }
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    report('history', [
      { figure: `repository built: ${COMMITS} commits of the page among ${COMMITS * 2}`, value: ms(built) },
      {
        figure: `first 50 entries of a page with ${COMMITS} commits (HTTP), median of ${RUNS}`,
        value: ms(percentile(firstSamples, 50)),
        goal: '< 100 ms',
      },
      { figure: 'first 50 entries, p95', value: ms(percentile(firstSamples, 95)) },
      { figure: 'next 50 entries (cursor), median', value: ms(percentile(nextSamples, 50)) },
      {
        figure: 'the git read alone (pageHistory, in process), median',
        value: ms(percentile(directSamples, 50)),
      },
      {
        figure: 'for scale: `git --version` through runGit, median',
        value: ms(percentile(spawnSamples, 50)),
      },
      {
        figure: 'for scale: GET /api/v1/workspaces/:id (database only), median',
        value: ms(percentile(baseSamples, 50)),
      },
      { figure: 'load average (1 min) at the end', value: os.loadavg()[0]!.toFixed(1) },
    ]);
  } finally {
    await folio.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
