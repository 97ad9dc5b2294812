/**
 * Cold start to healthy, and idle memory, beside a Fastify hello-world: starts the built
 * server on a fresh DATA_DIR the way `npm start` does (`node <its V8 flags>
 * bin/folio.js serve`) and as plain `node bin/folio.js serve`, and bench/hello-world.mjs,
 * in turn, several times each (BENCH_RUNS, default 7); measures the
 * time from spawn to the first 200 of /api/health, the CPU the process used by then
 * (user + system, steadier than wall time on a busy machine), and the RSS after 3 s idle.
 * Folio starts once unmeasured first, to write its code cache (dist/.code-cache), as the
 * first start after an install does; that start's figures are printed on their own.
 * BENCH_STARTUP_BASELINE=<dir> adds the `npm start` of another built checkout (the code
 * before a change, say) to the same alternation.
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

/** The Node flags a checkout's `npm start` passes (its package.json `start` script). */
function startFlags(root: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  return pkg.scripts.start.split(/\s+/).filter((arg) => arg.startsWith('--'));
}

export async function benchStartup(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'dist/folio.js'))) throw new Error('run `npm run build` first');
  const bin = path.join(ROOT, 'bin/folio.js');
  // `npm start` passes V8's young-generation cap, which `node bin/folio.js` (no shebang) does not.
  const variants = [
    { name: 'hello-world', args: [path.join(ROOT, 'bench/hello-world.mjs')] },
    { name: '`npm start`', args: [...startFlags(ROOT), bin, 'serve'] },
    { name: '`node bin/folio.js serve`', args: [bin, 'serve'] },
  ];
  const baseline = process.env.BENCH_STARTUP_BASELINE;
  if (baseline)
    variants.push({
      name: `\`npm start\` of ${baseline}`,
      args: [...startFlags(baseline), path.join(path.resolve(baseline), 'bin/folio.js'), 'serve'],
    });
  const samples = variants.map(() => [] as Sample[]);
  const load = os.loadavg()[0]!;
  // The first start after a build compiles the bundle and, 2 s later, saves V8's code cache
  // under dist/.code-cache (src/cli/code-cache.ts), which every later start uses: one
  // unmeasured start of each Folio, from an empty cache, reported on its own.
  fs.rmSync(path.join(ROOT, 'dist/.code-cache'), { recursive: true, force: true });
  const firstStarts = [];
  for (const variant of variants.slice(1)) firstStarts.push(await once(variant.args, await freePort()));
  // Alternating, so a change in the machine's load weighs on every variant alike.
  for (let i = 0; i < RUNS; i++)
    for (const [v, variant] of variants.entries())
      samples[v]!.push(await once(variant.args, await freePort()));
  const loadAfter = os.loadavg()[0]!;
  const [hello, ...folios] = samples as [Sample[], ...Sample[][]];
  const rows = (figure: string, key: keyof Sample, unit: string, digits: number, goal: string) =>
    folios.map((folio, f) => {
      const value = median(folio, key);
      const floor = median(hello, key);
      return {
        figure: `${figure}: Folio as ${variants[f + 1]!.name} / hello-world (ratio)`,
        value: `${value.toFixed(digits)} / ${floor.toFixed(digits)} ${unit} (${(value / floor).toFixed(2)}x)`,
        goal,
      };
    });
  const worst = (list: Sample[]) => Math.max(...list.map((s) => s.startMs)).toFixed(0);
  report('startup', [
    ...rows(`cold start to the first 200 of /api/health, median of ${RUNS}`, 'startMs', 'ms', 0, '<= 1.5x'),
    ...rows('CPU used by then (user + system), median', 'cpuMs', 'ms', 0, ''),
    ...rows('RSS 3 s after start, median', 'idleRssMb', 'MB', 1, '<= 1.3x'),
    {
      figure: 'cold start, worst: hello-world / ' + folios.map((_, f) => variants[f + 1]!.name).join(' / '),
      value: `${[hello, ...folios].map(worst).join(' / ')} ms`,
    },
    {
      figure:
        'first start after the build (no code cache yet): ' +
        variants
          .slice(1)
          .map((v) => v.name)
          .join(' / '),
      value: `${firstStarts.map((s) => s.startMs.toFixed(0)).join(' / ')} ms, CPU ${firstStarts.map((s) => s.cpuMs.toFixed(0)).join(' / ')} ms`,
    },
    { figure: 'load average (1 min) before / after', value: `${load.toFixed(1)} / ${loadAfter.toFixed(1)}` },
  ]);
}
