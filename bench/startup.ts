/**
 * Cold start to healthy, and idle memory, beside a Fastify hello-world: starts the built
 * server the way `npm start` does (`node --max-semi-space-size=2 bin/folio.js serve`) on a
 * fresh DATA_DIR and bench/hello-world.mjs alternately, several times each; measures the
 * time from spawn to the first 200 of /api/health, the CPU the process used by then
 * (user + system, steadier than wall time on a busy machine), and the RSS after 3 s idle.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../test/helpers/ports.js';
import { percentile, report } from './report.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

interface Sample {
  startMs: number;
  cpuMs: number;
  idleRssMb: number;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** User + system CPU time of a process so far, from /proc/<pid>/stat. */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
}

async function once(args: string[], port: number): Promise<Sample> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-'));
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
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
        throw new Error(`${args.join(' ')} exited with code ${child.exitCode} before it was healthy`);
      if (performance.now() - t0 > 20_000) throw new Error(`${args.join(' ')} was not healthy in 20 s`);
      await new Promise((r) => setTimeout(r, 2));
    }
    const startMs = performance.now() - t0;
    const cpu = cpuMs(child.pid!);
    await new Promise((r) => setTimeout(r, 3000));
    return { startMs, cpuMs: cpu, idleRssMb: rssMb(child.pid!) };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('close', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (samples: Sample[], key: keyof Sample) =>
  percentile(
    samples.map((s) => s[key]),
    50,
  );

export async function benchStartup(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'dist/folio.js'))) throw new Error('run `npm run build` first');
  const folioArgs = ['--max-semi-space-size=2', path.join(ROOT, 'bin/folio.js'), 'serve'];
  const helloArgs = [path.join(ROOT, 'bench/hello-world.mjs')];
  const folio: Sample[] = [];
  const hello: Sample[] = [];
  const load = os.loadavg()[0]!;
  // Alternating, so a change in the machine's load weighs on both alike.
  for (let i = 0; i < RUNS; i++) {
    hello.push(await once(helloArgs, await freePort()));
    folio.push(await once(folioArgs, await freePort()));
  }
  const loadAfter = os.loadavg()[0]!;
  const row = (figure: string, key: keyof Sample, unit: string, digits: number, goal: string) => {
    const f = median(folio, key);
    const h = median(hello, key);
    return {
      figure: `${figure}: Folio / hello-world (ratio)`,
      value: `${f.toFixed(digits)} / ${h.toFixed(digits)} ${unit} (${(f / h).toFixed(2)}x)`,
      goal,
    };
  };
  report('startup', [
    row(`cold start to the first 200 of /api/health, median of ${RUNS}`, 'startMs', 'ms', 0, '<= 1.5x'),
    row('CPU used by then (user + system), median', 'cpuMs', 'ms', 0, ''),
    row('RSS 3 s after start, median', 'idleRssMb', 'MB', 1, '<= 1.3x'),
    {
      figure: 'cold start, worst: Folio / hello-world',
      value: `${Math.max(...folio.map((s) => s.startMs)).toFixed(0)} / ${Math.max(...hello.map((s) => s.startMs)).toFixed(0)} ms`,
    },
    { figure: 'load average (1 min) before / after', value: `${load.toFixed(1)} / ${loadAfter.toFixed(1)}` },
  ]);
}
