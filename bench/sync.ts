/**
 * Git pull reconciliation: a real Folio (SQLite, fresh DATA_DIR) whose
 * workspace has a bare remote over file://. A clone commits FILES pages and
 * pushes; `POST /sync` pulls them in (fetch, merge, reconcile into the page
 * index and search, write page ids back, push). Then the clone changes every
 * one of those files and pushes again, and that second sync is the figure
 * DocPlatform's claim is about: a pull that changes 1,000 files. Each round
 * is repeated ROUNDS times on fresh changes; the median and worst are shown.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configFrom } from '../src/config.js';
import { createFolio } from '../src/main.js';
import { percentile, report } from './report.js';
import { jsonClient, registerBenchUser } from './fixture.js';

const FILES = Number(process.env.BENCH_SYNC_FILES ?? 1000);
const ROUNDS = Number(process.env.BENCH_SYNC_ROUNDS ?? 5);

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Bench',
      GIT_AUTHOR_EMAIL: 'bench@example.com',
      GIT_COMMITTER_NAME: 'Bench',
      GIT_COMMITTER_EMAIL: 'bench@example.com',
    },
  }).toString();

/** About 1.5 KB of Markdown per page, different in every round. */
const page = (i: number, round: number) =>
  `---\ntitle: Page ${i}\n---\n\n# Page ${i}, revision ${round}\n\n` +
  `${'Documentation text that a writer changed in their editor. '.repeat(20)}\n\nSee [[pages/p${(i + 1) % FILES}]].\n`;

export async function benchSync(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-sync-'));
  const dataDir = path.join(root, 'data');
  const bare = path.join(root, 'docs.git');
  const clone = path.join(root, 'clone');
  git(root, 'init', '-q', '--bare', '-b', 'main', bare);
  const config = configFrom({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    GIT_SYNC_INTERVAL: '0',
  });
  const unlimited = { limit: 1_000_000_000 };
  const folio = await createFolio(config, {
    rateLimits: { contentWrite: unlimited, registration: unlimited, auth: unlimited },
  });
  const base = (await folio.listen()).replace('0.0.0.0', '127.0.0.1');
  try {
    const call = jsonClient(base);
    const token = await registerBenchUser(call);
    const ws = await call('POST', '/api/v1/workspaces', token, {
      name: 'Bench',
      slug: 'bench-sync',
      git_remote: `file://${bare}`,
      git_branch: 'main',
    });
    git(root, 'clone', '-q', `file://${bare}`, clone);
    git(clone, 'checkout', '-q', '-b', 'main');

    const pushRound = (round: number) => {
      // Folio pushed after the previous sync (page ids, its own commits): start from there.
      if (round > 0) git(clone, 'pull', '-q', '--ff-only', 'origin', 'main');
      fs.mkdirSync(path.join(clone, 'pages'), { recursive: true });
      for (let i = 0; i < FILES; i++) {
        const file = path.join(clone, 'pages', `p${i}.md`);
        // Keep the id Folio wrote into the frontmatter, as a writer's editor would.
        const id = round > 0 ? /^id: (\S+)$/m.exec(fs.readFileSync(file, 'utf8'))?.[1] : undefined;
        fs.writeFileSync(file, id ? page(i, round).replace('---\n', `---\nid: ${id}\n`) : page(i, round));
      }
      git(clone, 'add', '-A');
      git(clone, 'commit', '-q', '-m', `Round ${round}`);
      git(clone, 'push', '-q', 'origin', 'main');
    };
    const sync = async () => {
      const t0 = performance.now();
      const result = await call('POST', `/api/v1/workspaces/${ws.id as string}/sync`, token);
      return { ms: performance.now() - t0, result };
    };

    pushRound(0);
    const first = await sync();
    const added = (first.result.changes as { added: number }).added;
    if (added !== FILES) throw new Error(`first sync added ${added}, expected ${FILES}`);

    const samples: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      pushRound(round);
      const { ms, result } = await sync();
      const updated = (result.changes as { updated: number }).updated;
      if (updated !== FILES) throw new Error(`round ${round} updated ${updated}, expected ${FILES}`);
      samples.push(ms);
    }

    const s = (v: number) => `${(v / 1000).toFixed(2)} s`;
    report('sync', [
      { figure: `sync of a pull adding ${FILES} files (first sync)`, value: s(first.ms) },
      {
        figure: `sync of a pull changing ${FILES} files, median of ${ROUNDS}`,
        value: s(percentile(samples, 50)),
        goal: '< 5 s (goal < 1.5 s)',
      },
      { figure: `sync of a pull changing ${FILES} files, worst`, value: s(Math.max(...samples)) },
      { figure: 'load average (1 min) at the end', value: os.loadavg()[0]!.toFixed(1) },
    ]);
  } finally {
    await folio.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
