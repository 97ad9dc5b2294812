/**
 * The start-up sweep's cost: recording a workspace's tree before the server listens
 * (WorkspaceRepo.snapshot), for a clean workspace and for a 5,000-page one whose every
 * file changed while the server was down, and committing that snapshot afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runGit } from '../src/git/git.js';
import { WorkspaceRepo } from '../src/git/repository.js';
import { percentile, report } from './report.js';

const PAGES = 5_000;
const CLEAN_RUNS = 20;
const who = { authorName: 'Bench', authorEmail: 'bench@example.com' };

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

export async function benchSweep(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-sweep-'));
  try {
    const repo = new WorkspaceRepo(path.join(dir, 'ws'));
    await repo.init('main');
    for (let i = 0; i < PAGES; i++) {
      const folder = path.join(repo.root, `section-${i % 50}`);
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, `page-${i}.md`), `---\ntitle: Page ${i}\n---\n\nText ${i}.\n`);
    }
    await repo.commitAll({ ...who, message: 'pages' });
    await runGit(repo.root, ['status', '--porcelain']);

    const clean: number[] = [];
    for (let i = 0; i < CLEAN_RUNS; i++) clean.push((await timed(() => repo.snapshot()))[1]);
    for (let i = 0; i < PAGES; i++) {
      const file = path.join(repo.root, `section-${i % 50}`, `page-${i}.md`);
      fs.writeFileSync(
        file,
        `---\nid: ${String(i).padStart(26, '0')}\ntitle: Page ${i}\n---\n\nText ${i}.\n`,
      );
    }
    const [snapshot, dirtyMs] = await timed(() => repo.snapshot());
    const [, commitMs] = await timed(() => repo.commitSnapshot(snapshot, { ...who, message: 'left' }));
    if (snapshot.paths.length !== PAGES)
      throw new Error(`expected ${PAGES} paths, got ${snapshot.paths.length}`);

    report('start-up sweep', [
      {
        figure: `snapshot of a clean ${PAGES}-page workspace, median`,
        value: `${percentile(clean, 50).toFixed(0)} ms`,
      },
      { figure: `snapshot with all ${PAGES} pages changed`, value: `${dirtyMs.toFixed(0)} ms` },
      { figure: `committing that snapshot`, value: `${commitMs.toFixed(0)} ms` },
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
