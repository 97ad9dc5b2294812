/**
 * Mixed load against Folio as `npm start` runs it (`node bin/folio.js serve`, the
 * production build, SQLite, a fresh DATA_DIR): two workspaces of 250 pages, then many
 * clients at once, each request one of
 *
 *   70 % page reads, 10 % searches, 10 % page updates, 5 % published-site pages, 5 % trees.
 *
 * Two runs:
 * - `team`: 50 people with the default rate limits, each sending a request every 12 s
 *   on average (so about 4 a second for the organization: 175 reads, 25 saves and 25
 *   searches a minute, inside the API's 300, 60 and 60). Goal: no 429 and no
 *   time-out.
 * - `busy`: 200 clients with the limits lifted (`RATE_LIMITS=…=off`), each sending a
 *   request every second on average (about 200 a second: 20 saves a second, far more than
 *   any team of people). Goals: no error; p99 < 100 ms for reads, searches, trees and site
 *   pages, < 250 ms for updates; server RSS < 200 MB at peak, < 150 MB a minute after.
 * - `saturation`: the same 200 clients sending each next request as soon as the last is
 *   answered, to find the most the server answers. No latency goal: with no pause, the
 *   time a client waits is the number of clients over the requests answered a second
 *   (Little's law), so it measures throughput and CPU per request.
 *
 * The clients run in this process on the same two cores as the server, so latencies
 * include the clients' own work. CPU and RSS are the server process's, from /proc.
 * `BENCH_LOAD_SECONDS` sets each run's length (default 60), `BENCH_LOAD_RUNS` which runs
 * (default `team,busy,saturation`), `BENCH_LOAD_PROFILE` a directory for the server's CPU profiles.
 * Each run starts with 5 s of the same load that is not counted (the warm-up).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../test/helpers/ports.js';
import { jsonClient, registerBenchUser } from './fixture.js';
import { percentile, report, type Figure } from './report.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const RUNS = (process.env.BENCH_LOAD_RUNS ?? 'team,busy,saturation').split(',');
const PAGES_PER_WORKSPACE = 250;
const WARM_UP_SECONDS = 5;
const REQUEST_TIMEOUT_MS = 10_000;
const LIFTED = 'contentRead=off,contentWrite=off,search=off,publishedDocs=off,auth=off,registration=off';

type Kind = 'read' | 'search' | 'update' | 'site' | 'tree';
const MIX: Array<[Kind, number]> = [
  ['read', 0.7],
  ['search', 0.1],
  ['update', 0.1],
  ['site', 0.05],
  ['tree', 0.05],
];
const WORDS = ['release', 'install', 'configure', 'backup', 'deploy', 'review', 'sign', 'export'];

function pickKind(): Kind {
  let r = Math.random();
  for (const [kind, share] of MIX) if ((r -= share) < 0) return kind;
  return 'read';
}

const body = (i: number, n = 0) =>
  `# Page ${i}\n\nHow to ${WORDS[i % WORDS.length]} and ${WORDS[(i + 3) % WORDS.length]} (revision ${n}).\n\n` +
  'Folio keeps documentation in plain Markdown files that a team edits and publishes. '.repeat(12);

/** The server's resident memory (MB) and CPU time so far (ms), from /proc. */
function usage(pid: number): { rssMb: number; cpuMs: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
  return { rssMb: rssKb / 1024, cpuMs: (ticks * 1000) / 100 };
}

/** The Node options `npm start` gives the server, so the benchmark runs it the same way. */
function npmStartFlags(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  return pkg.scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}

async function startServer(dataDir: string, port: number, rateLimits?: string): Promise<ChildProcess> {
  // BENCH_LOAD_PROFILE=<dir> writes a CPU profile of the server there when it stops.
  const profile = process.env.BENCH_LOAD_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_LOAD_PROFILE}`]
    : [];
  const child = spawn(
    process.execPath,
    [...profile, ...npmStartFlags(), path.join(ROOT, 'bin/folio.js'), 'serve'],
    {
      env: {
        PATH: process.env.PATH,
        ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        BACKUP_INTERVAL_HOURS: '0',
        ...(rateLimits ? { RATE_LIMITS: rateLimits } : {}),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  for (let i = 0; i < 300; i++) {
    const ready = await fetch(`http://127.0.0.1:${port}/api/ready`).catch(() => null);
    if (ready?.status === 200) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('Folio did not become ready');
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Workspace {
  id: string;
  slug: string;
  hashes: string[];
}

/** The benchmark user's organization with two public workspaces of published pages. */
async function seed(base: string): Promise<{ token: string; workspaces: Workspace[] }> {
  const call = jsonClient(base);
  const token = await registerBenchUser(call);
  const first = ((await call('GET', '/api/v1/workspaces', token)).data as Workspace[])[0]!;
  const second = (await call('POST', '/api/v1/workspaces', token, {
    name: 'Handbook',
    slug: 'handbook',
  })) as {
    id: string;
    slug: string;
  };
  const workspaces: Workspace[] = [];
  for (const ws of [first, second]) {
    await call('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, token, { public_site: true });
    const hashes: string[] = [];
    for (let i = 0; i < PAGES_PER_WORKSPACE; i++) {
      const page = await call('POST', `/api/v1/content/${ws.slug}/section-${i % 10}/page-${i}.md`, token, {
        title: `Page ${i}`,
        body: body(i),
        publish: true,
      });
      hashes.push(page.content_hash as string);
    }
    workspaces.push({ id: ws.id, slug: ws.slug, hashes });
  }
  return { token, workspaces };
}

interface Tally {
  latencies: Record<Kind, number[]>;
  statuses: Map<string, number>;
  timeouts: number;
  errors: number;
}

/**
 * `clients` loops for `seconds`. Each client updates pages of its own (so saves do not
 * race each other into 409s) and reads any page; `thinkMs` is the mean pause between
 * two requests of one client (exponentially distributed), 0 for none.
 */
async function drive(
  base: string,
  seed: { token: string; workspaces: Workspace[] },
  clients: number,
  seconds: number,
  thinkMs: number,
): Promise<Tally> {
  const tally: Tally = {
    latencies: { read: [], search: [], update: [], site: [], tree: [] },
    statuses: new Map(),
    timeouts: 0,
    errors: 0,
  };
  const headers = { authorization: `Bearer ${seed.token}`, 'content-type': 'application/json' };
  const end = Date.now() + seconds * 1000;
  const pagePath = (i: number) => `section-${i % 10}/page-${i}.md`;

  async function once(client: number, kind: Kind): Promise<void> {
    const ws = seed.workspaces[client % seed.workspaces.length]!;
    const any = Math.floor(Math.random() * PAGES_PER_WORKSPACE);
    // The clients of one workspace take turns over its pages: each owns every n-th one.
    const sharing = Math.ceil(clients / seed.workspaces.length);
    const first = Math.floor(client / seed.workspaces.length);
    const owned = Math.floor((PAGES_PER_WORKSPACE - 1 - first) / sharing) + 1;
    const own = first + sharing * Math.floor(Math.random() * owned);
    let url: string;
    let init: RequestInit = { headers };
    if (kind === 'read') url = `/api/v1/content/${ws.slug}/${pagePath(any)}`;
    else if (kind === 'search') url = `/api/v1/workspaces/${ws.id}/search?q=${WORDS[any % WORDS.length]}`;
    else if (kind === 'tree') url = `/api/v1/content/${ws.slug}/tree`;
    else if (kind === 'site') url = `/p/${ws.slug}/section-${any % 10}/page-${any}`;
    else {
      url = `/api/v1/content/${ws.slug}/${pagePath(own)}`;
      init = {
        method: 'PUT',
        headers,
        body: JSON.stringify({ body: body(own, Date.now()), lastKnownHash: ws.hashes[own] }),
      };
    }
    const t0 = performance.now();
    try {
      const res = await fetch(base + url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const text = await res.text();
      tally.latencies[kind].push(performance.now() - t0);
      const key = `${kind} ${res.status}`;
      tally.statuses.set(key, (tally.statuses.get(key) ?? 0) + 1);
      if (kind === 'update' && res.status === 200) ws.hashes[own] = JSON.parse(text).content_hash;
      if (kind === 'update' && res.status === 409) {
        const current = await fetch(base + url, { headers });
        ws.hashes[own] = ((await current.json()) as { content_hash: string }).content_hash;
      }
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') tally.timeouts++;
      else tally.errors++;
    }
  }

  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      // Spread the first requests over the first think time, as people arrive.
      if (thinkMs > 0) await new Promise((r) => setTimeout(r, Math.random() * thinkMs));
      while (Date.now() < end) {
        await once(client, pickKind());
        if (thinkMs > 0) await new Promise((r) => setTimeout(r, -Math.log(1 - Math.random()) * thinkMs));
      }
    }),
  );
  return tally;
}

async function run(name: string, clients: number, thinkMs: number, rateLimits?: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-load-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Seeded with the limits lifted; the team run then starts again with the defaults.
  let server = await startServer(dataDir, port, LIFTED);
  try {
    const seeded = await seed(base);
    if (rateLimits === undefined) {
      await stopServer(server);
      server = await startServer(dataDir, port);
    }
    const pid = server.pid!;
    await new Promise((r) => setTimeout(r, 2_000));
    const idle = usage(pid);
    let peakRss = idle.rssMb;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, usage(pid).rssMb)), 500);
    // A few seconds of the same load first, not counted: the first requests of a server
    // start its render threads and compile its hot paths, which a server in service has done.
    await drive(base, seeded, clients, WARM_UP_SECONDS, thinkMs);
    const warm = usage(pid);
    const tally = await drive(base, seeded, clients, SECONDS, thinkMs);
    clearInterval(sampler);
    const loaded = usage(pid);
    await new Promise((r) => setTimeout(r, 30_000));
    const after30 = usage(pid).rssMb;
    await new Promise((r) => setTimeout(r, 30_000));
    const after60 = usage(pid).rssMb;

    const total = Object.values(tally.latencies).reduce((n, l) => n + l.length, 0);
    const non2xx = [...tally.statuses].filter(([key]) => !/ 2\d\d$/.test(key));
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const figures: Figure[] = [
      { figure: `requests answered in ${SECONDS} s`, value: `${total} (${(total / SECONDS).toFixed(0)}/s)` },
      {
        figure: 'non-2xx by kind and status',
        value: non2xx.map(([k, n]) => `${k}: ${n}`).join(', ') || 'none',
        goal: rateLimits === undefined ? 'no 429' : 'none',
      },
      {
        figure: 'time-outs (10 s) / connection errors',
        value: `${tally.timeouts} / ${tally.errors}`,
        goal: '0 / 0',
      },
    ];
    for (const kind of Object.keys(tally.latencies) as Kind[]) {
      const l = tally.latencies[kind];
      figures.push({
        figure: `${kind} (${l.length}), p50 / p99`,
        value: `${ms(percentile(l, 50))} / ${ms(percentile(l, 99))}`,
        goal:
          rateLimits === undefined || thinkMs === 0
            ? ''
            : kind === 'update'
              ? 'p99 < 250 ms'
              : 'p99 < 100 ms',
      });
    }
    figures.push(
      {
        figure: 'server CPU per request',
        value: `${((loaded.cpuMs - warm.cpuMs) / Math.max(1, total)).toFixed(2)} ms`,
      },
      {
        figure: 'server RSS idle / peak / 30 s after / 60 s after',
        value: `${idle.rssMb.toFixed(0)} / ${peakRss.toFixed(0)} / ${after30.toFixed(0)} / ${after60.toFixed(0)} MB`,
        goal: 'peak < 200 MB, < 150 MB within a minute',
      },
    );
    report(
      `load: ${name} (${clients} clients${thinkMs ? `, a request every ${thinkMs / 1000} s each` : ''})`,
      figures,
    );
  } finally {
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchLoad(): Promise<void> {
  if (RUNS.includes('team')) await run('team of 50, default limits', 50, 12_000, undefined);
  if (RUNS.includes('busy')) await run('busy, limits lifted', 200, 1_000, LIFTED);
  if (RUNS.includes('saturation')) await run('saturation, limits lifted', 200, 0, LIFTED);
}
