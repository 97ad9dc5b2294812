/**
 * Cold start to healthy, and idle memory: starts the built server the way `npm start`
 * does (`node bin/folio.js serve`) on a fresh DATA_DIR several times, measures the time
 * from spawn to the first 200 of /api/health, then the RSS after 3 s idle.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../test/helpers/ports.js';
import { percentile, report } from './report.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

async function once(port: number): Promise<{ startMs: number; idleRssMb: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-'));
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/folio.js'), 'serve'], {
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then((r) => r.status === 200)
        .catch(() => false);
      if (ok) break;
      if (child.exitCode !== null)
        throw new Error(`server exited with code ${child.exitCode} before it was healthy`);
      if (performance.now() - t0 > 20_000) throw new Error('server did not become healthy in 20 s');
      await new Promise((r) => setTimeout(r, 5));
    }
    const startMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 3000));
    return { startMs, idleRssMb: rssMb(child.pid!) };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('close', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchStartup(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'dist/folio.js'))) throw new Error('run `npm run build` first');
  const starts: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await once(await freePort());
    starts.push(r.startMs);
    rss.push(r.idleRssMb);
  }
  report('startup', [
    {
      figure: 'cold start to healthy, median',
      value: `${percentile(starts, 50).toFixed(0)} ms`,
      goal: '< 500 ms',
    },
    {
      figure: 'cold start to healthy, worst',
      value: `${Math.max(...starts).toFixed(0)} ms`,
      goal: '< 500 ms',
    },
    { figure: 'idle RSS after 3 s, median', value: `${percentile(rss, 50).toFixed(1)} MB`, goal: '< 70 MB' },
  ]);
}
