/**
 * What several server processes (FOLIO_PROCESSES) gain on one machine: Folio as `npm start`
 * runs it (`node bin/folio.js serve`, the production build) on PostgreSQL and Redis, with
 * 1 process and then with 2, each on a fresh schema and DATA_DIR. autocannon, in its own
 * process, reads one page with an access token over BENCH_CONNECTIONS keep-alive
 * connections (default 20) for BENCH_SECONDS (default 15) after a 3 s warm-up.
 *
 * Reported for each count: requests per second, p50 / p99 latency, failures, and how many
 * cores the server's processes and the whole machine kept busy (CPU time from /proc over
 * the run's wall time); then the load average before the first run. The client, PostgreSQL
 * and Redis run on the same cores as the server, so on a small machine the gain is bounded
 * by what they use too.
 *
 * Needs BENCH_DATABASE_URL (or TEST_DATABASE_URL) and TEST_REDIS_URL. BENCH_PROCESSES
 * lists the counts (default `1,2`); BENCH_FOLIO names another build of the CLI to start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPgSchema } from '../test/helpers/pg-schema.js';
import { freePort } from '../test/helpers/ports.js';
import { jsonClient, registerBenchUser } from './fixture.js';
import { type Figure, report } from './report.js';
import { autocannon, type Cannon } from './autocannon.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const ENTRY = path.resolve(process.env.BENCH_FOLIO ?? path.join(ROOT, 'bin/folio.js'));
const DATABASE_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const COUNTS = (process.env.BENCH_PROCESSES ?? '1,2').split(',').map(Number);
const LIFTED = 'contentRead=off,contentWrite=off,registration=off,auth=off';

/** autocannon against `url`, signed in with `token`. */
const load = (url: string, token: string, seconds: number): Promise<Cannon> =>
  autocannon(url, { seconds, connections: CONNECTIONS, headers: { authorization: `Bearer ${token}` } });

/** CPU seconds (user + system) used so far by `pids`, from /proc (clock ticks of 10 ms). */
function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}

/** CPU seconds the whole machine has been busy (every core, every process), from /proc/stat. */
function machineBusySeconds(): number {
  // user nice system idle iowait irq softirq steal (guest time is inside user time).
  const ticks = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  const [, , , idle = 0, iowait = 0] = ticks;
  return (ticks.reduce((sum, t) => sum + t, 0) - idle - iowait) / 100;
}

const children = (pid: number): number[] =>
  fs
    .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);

interface Server {
  base: string;
  /** The primary and its workers, or the one process. */
  pids: number[];
  stop(): Promise<void>;
}

/** `folio serve` with `processes` processes, answered once each of them is serving and ready. */
async function startServer(processes: number, databaseUrl: string): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-processes-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [ENTRY, 'serve'], {
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      FOLIO_PROCESSES: String(processes),
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      LOG_LEVEL: 'warn',
      BACKUP_INTERVAL_HOURS: '0',
      RATE_LIMITS: LIFTED,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  // Each serving process holds a lock file in DATA_DIR/run, written once it listens.
  const serving = () => {
    try {
      return fs.readdirSync(path.join(dataDir, 'run')).length;
    } catch {
      return 0;
    }
  };
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`folio serve exited with ${child.exitCode}`);
    const ready = await fetch(`${base}/api/ready`).catch(() => null);
    if (ready?.status === 200 && serving() === processes) {
      const pids = [child.pid!, ...(processes > 1 ? children(child.pid!) : [])];
      return { base, pids, stop };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`folio serve with ${processes} processes did not become ready`);
}

interface Run {
  processes: number;
  cannon: Cannon;
  coresBusy: number;
  /** Cores busy on the whole machine meanwhile: near all of them, there was nothing left to gain. */
  machineCoresBusy: number;
}

async function measure(processes: number): Promise<Run> {
  const schema = await createPgSchema(DATABASE_URL!);
  const url = new URL(DATABASE_URL!);
  url.searchParams.set('options', `-c search_path=${schema.schema}`);
  const server = await startServer(processes, url.toString());
  try {
    const call = jsonClient(server.base);
    const token = await registerBenchUser(call);
    const ws = ((await call('GET', '/api/v1/workspaces', token)).data as Array<{ slug: string }>)[0]!;
    const page = `/api/v1/content/${ws.slug}/guides/install.md`;
    await call('POST', page, token, {
      title: 'Install',
      body: '# Install\n\n' + 'Folio keeps documentation in Markdown files that a team edits. '.repeat(30),
    });
    await load(server.base + page, token, 3); // warm-up: JIT, pools, caches
    const before = cpuSeconds(server.pids);
    const machineBefore = machineBusySeconds();
    const started = performance.now();
    const cannon = await load(server.base + page, token, SECONDS);
    const wallSeconds = (performance.now() - started) / 1000;
    const coresBusy = (cpuSeconds(server.pids) - before) / wallSeconds;
    const machineCoresBusy = (machineBusySeconds() - machineBefore) / wallSeconds;
    return { processes, cannon, coresBusy, machineCoresBusy };
  } finally {
    await server.stop();
    await schema.cleanup();
  }
}

export async function benchProcesses(): Promise<void> {
  if (!DATABASE_URL || !REDIS_URL)
    throw new Error('set BENCH_DATABASE_URL (or TEST_DATABASE_URL) and TEST_REDIS_URL');
  if (!process.env.BENCH_FOLIO && !fs.existsSync(path.join(ROOT, 'dist/folio.js')))
    throw new Error('run `npm run build` first');
  // Other work on the machine skews the figures; this says how much there was.
  const loadBefore = os.loadavg()[0]!;
  const runs: Run[] = [];
  for (const processes of COUNTS) runs.push(await measure(processes));
  const figures: Figure[] = runs.flatMap(({ processes, cannon, coresBusy, machineCoresBusy }) => [
    { figure: `${processes} process(es): requests/s`, value: cannon.requests.average.toFixed(0) },
    {
      figure: `${processes} process(es): latency p50 / p99`,
      value: `${cannon.latency.p50} / ${cannon.latency.p99} ms`,
    },
    {
      figure: `${processes} process(es): non-2xx / errors / time-outs`,
      value: `${cannon.non2xx} / ${cannon.errors} / ${cannon.timeouts}`,
      goal: '0 / 0 / 0',
    },
    {
      figure: `${processes} process(es): cores busy, server / whole machine`,
      value: `${coresBusy.toFixed(2)} / ${machineCoresBusy.toFixed(2)} of ${os.availableParallelism()}`,
    },
  ]);
  figures.push({ figure: 'load average before the first run', value: loadBefore.toFixed(1) });
  const [first, last] = [runs[0], runs.at(-1)];
  if (first && last && first !== last) {
    figures.push({
      figure: `requests/s, ${last.processes} processes against ${first.processes}`,
      value: `${(last.cannon.requests.average / first.cannon.requests.average).toFixed(2)}x`,
    });
  }
  report(
    `processes: ${CONNECTIONS} connections reading one page for ${SECONDS} s, PostgreSQL + Redis`,
    figures,
  );
}
