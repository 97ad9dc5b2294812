/**
 * Saves to one workspace, one writer against 32 at once: the production build
 * (`npm run build` first) as `folio serve` in its own process, SQLite (or
 * PostgreSQL with BENCH_DATABASE_URL), a fresh DATA_DIR, every rate limit off.
 * Each writer saves its own ~2 KB page back to back over HTTP, a PUT with the
 * hash its previous save answered, so every save takes the whole write path
 * (hash check, file, index, activity, search). Same server for both runs; the
 * client runs in this process, on the same two cores.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RATE_BUCKETS } from '../src/ratelimit/buckets.js';
import { freePort } from '../test/helpers/ports.js';
import { jsonClient, registerBenchUser } from './fixture.js';
import { percentile, report } from './report.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const WRITERS = Number(process.env.BENCH_WRITERS ?? 32);
/** How long each run lasts (ms), after a warm-up of the same writers. */
const RUN_MS = Number(process.env.BENCH_SAVES_MS ?? 8000);
const WARMUP_MS = 2000;

const body = (writer: number, n: number): string =>
  `# Notes of writer ${writer}\n\nRevision ${n}.\n\n` +
  Array.from({ length: 12 }, (_, i) => `- Item ${i}: see [[guides/setup]] and [the FAQ](faq.md).`).join(
    '\n',
  ) +
  `\n\n${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(20)}\n`;

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  // BENCH_SAVES_PROFILE=<dir> writes a CPU profile of the server there when it stops.
  const profile = process.env.BENCH_SAVES_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SAVES_PROFILE}`]
    : [];
  const child = spawn(process.execPath, [...profile, path.join(ROOT, 'bin/folio.js'), 'serve'], {
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      BACKUP_INTERVAL_HOURS: '0',
      RATE_LIMITS: Object.keys(RATE_BUCKETS)
        .map((bucket) => `${bucket}=off`)
        .join(','),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i++) {
    const ready = await fetch(`http://127.0.0.1:${port}/api/ready`).catch(() => null);
    if (ready?.status === 200) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('Folio did not become ready');
}

interface Run {
  saves: number;
  perSecond: number;
  latencies: number[];
  /** The server's CPU time (user + system) per save, ms. */
  cpuPerSave: number;
  /** This process's (the writers') CPU time per save, ms: it shares the cores with the server. */
  clientCpuPerSave: number;
}

/** CPU time (user + system) a process has used so far, ms, from /proc. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

export async function benchSaves(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'dist/folio.js'))) throw new Error('run `npm run build` first');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-saves-'));
  const port = await freePort();
  const server = await startServer(dataDir, port);
  try {
    const call = jsonClient(`http://127.0.0.1:${port}`);
    const token = await registerBenchUser(call);
    const slug = ((await call('GET', '/api/v1/workspaces', token)).data as Array<{ slug: string }>)[0]!.slug;
    const url = (writer: number) => `/api/v1/content/${slug}/notes/writer-${writer}.md`;
    const hashes: string[] = [];
    for (let w = 0; w < WRITERS; w++) {
      const created = await call('POST', url(w), token, { title: `Writer ${w}`, body: body(w, 0) });
      hashes.push(created.content_hash as string);
    }
    let revision = 0;

    /** `writers` writers saving back to back for `ms`; each save's time from send to answer. */
    const run = async (writers: number, ms: number): Promise<Run> => {
      const latencies: number[] = [];
      const cpu0 = cpuMs(server.pid!);
      const client0 = process.cpuUsage();
      const start = performance.now();
      const end = start + ms;
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          while (performance.now() < end) {
            const t0 = performance.now();
            const saved = await call('PUT', url(w), token, {
              body: body(w, ++revision),
              lastKnownHash: hashes[w],
            });
            latencies.push(performance.now() - t0);
            hashes[w] = saved.content_hash as string;
          }
        }),
      );
      const elapsed = (performance.now() - start) / 1000;
      const cpuPerSave = (cpuMs(server.pid!) - cpu0) / latencies.length;
      const client = process.cpuUsage(client0);
      const clientCpuPerSave = (client.user + client.system) / 1000 / latencies.length;
      return {
        saves: latencies.length,
        perSecond: latencies.length / elapsed,
        latencies,
        cpuPerSave,
        clientCpuPerSave,
      };
    };

    await run(WRITERS, WARMUP_MS);
    const one = await run(1, RUN_MS);
    const many = await run(WRITERS, RUN_MS);
    const load = os.loadavg()[0]!.toFixed(1);
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const of = (r: Run) => `${r.perSecond.toFixed(0)} saves/s (${r.saves} in ${RUN_MS / 1000} s)`;
    report('saves', [
      { figure: `1 writer, one workspace, load avg ${load}`, value: of(one) },
      { figure: `${WRITERS} writers, one workspace`, value: of(many) },
      {
        figure: `ratio ${WRITERS} writers / 1 writer`,
        value: `${(many.perSecond / one.perSecond).toFixed(2)}x`,
        goal: '>= 3x',
      },
      {
        figure: '1 writer: save p50 / p99',
        value: `${ms(percentile(one.latencies, 50))} / ${ms(percentile(one.latencies, 99))}`,
      },
      {
        figure: `${WRITERS} writers: save p50 / p99`,
        value: `${ms(percentile(many.latencies, 50))} / ${ms(percentile(many.latencies, 99))}`,
      },
      {
        figure: `server CPU per save, 1 / ${WRITERS} writers`,
        value: `${ms(one.cpuPerSave)} / ${ms(many.cpuPerSave)}`,
      },
      {
        figure: `client CPU per save, 1 / ${WRITERS} writers`,
        value: `${ms(one.clientCpuPerSave)} / ${ms(many.clientCpuPerSave)}`,
      },
    ]);
  } finally {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
