/**
 * Published-site throughput and latency: a real Folio (SQLite, fresh DATA_DIR) serves a
 * public site of 40 pages; autocannon (in its own process, so the client does not share
 * the server's event loop) requests one page for a fixed time. The same page, exported
 * as static HTML by Folio's own export, is then served by nginx on a loopback port with
 * one worker (Node serves from one thread too) as the yardstick.
 *
 * Goals: p99 < 5 ms (DocPlatform claims < 50 ms) and at least 40 % of nginx's requests
 * per second. Each request to Folio does the full path: rate limit, site CSP with a fresh
 * nonce, one database query for the workspace's fingerprint, the cached document.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';
import { configFrom } from '../src/config.js';
import { createFolio } from '../src/main.js';
import { freePort } from '../test/helpers/ports.js';
import { autocannon, type Cannon } from './autocannon.js';
import { report } from './report.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));

/** autocannon against `url` with this benchmark's defaults. */
const load = (url: string, seconds = DURATION, connections = CONNECTIONS): Promise<Cannon> =>
  autocannon(url, { seconds, connections });

async function extract(zipBytes: Buffer, dir: string): Promise<void> {
  const zip = await yauzl.fromBufferPromise(zipBytes, { lazyEntries: true });
  for await (const entry of zip.eachEntry()) {
    const target = path.join(dir, entry.fileName);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    fs.writeFileSync(target, Buffer.concat(chunks));
  }
}

/** CPU seconds (user + system) a process has used, from /proc (Linux clock ticks of 10 ms). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Nginx {
  stop(): Promise<void>;
  /** CPU seconds used so far by the worker. */
  cpu(): number;
}

/** nginx with one worker on a loopback port, serving `root`. */
async function startNginx(root: string, port: number): Promise<Nginx> {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-nginx-'));
  const conf = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 1024; }
http {
  access_log off;
  include /etc/nginx/mime.types;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { add_header Cache-Control "public, max-age=300"; }
  }
}
`,
  );
  const child = spawn(NGINX!, ['-p', prefix, '-e', `${prefix}/error.log`, '-c', conf], { stdio: 'inherit' });
  for (let i = 0; ; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/index.html`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 200) throw new Error('nginx did not start');
    await new Promise((r) => setTimeout(r, 25));
  }
  const master = child.pid!;
  const worker = Number(
    fs.readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(/\s+/)[0],
  );
  return {
    cpu: () => cpuSeconds(worker),
    async stop() {
      child.kill('SIGQUIT');
      await new Promise((r) => child.once('close', r));
      fs.rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/** Runs autocannon while measuring the server's CPU time: req/s and CPU µs per request. */
async function measure(url: string, cpu: () => number) {
  const before = cpu();
  const run = await load(url);
  const used = cpu() - before;
  const requests = run.requests.average * DURATION;
  return { run, cpuUsPerRequest: (used * 1e6) / requests };
}

/** About 6 KB of Markdown with headings, code, a table, links and a callout. */
const pageBody = (i: number): string =>
  `Page ${i} of the benchmark handbook. It reads like real documentation.\n\n` +
  Array.from(
    { length: 4 },
    (_, s) =>
      `## Section ${s + 1}\n\n${'Folio serves documentation from Markdown files with themes and search. '.repeat(8)}\n\n` +
      `\`\`\`ts\nexport function step${s}(input: string): string {\n  return input.trim();\n}\n\`\`\`\n\n` +
      `| Option | Default |\n| --- | --- |\n| port | 3000 |\n| theme | default |\n\n` +
      `> [!NOTE]\n> See [[guides/page-${(i + 1) % 40}]] and [the index](../index.md).\n`,
  ).join('\n');

export async function benchSite(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-site-'));
  // BENCH_METRICS=true measures the same path with Prometheus metrics on (FF_METRICS).
  const metrics = process.env.BENCH_METRICS === 'true' ? { FF_METRICS: 'true' } : {};
  const config = configFrom({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...metrics,
  });
  const unlimited = { limit: 1_000_000_000 };
  const folio = await createFolio(config, {
    rateLimits: {
      publishedDocs: unlimited,
      contentWrite: unlimited,
      registration: unlimited,
      auth: unlimited,
      export: unlimited,
    },
  });
  const base = (await folio.listen()).replace('0.0.0.0', '127.0.0.1');
  const exportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-export-'));
  let nginx: Nginx | undefined;
  try {
    const call = async (method: string, url: string, token?: string, payload?: unknown) => {
      const res = await fetch(base + url, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      });
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return res;
    };
    const reg = (await (
      await call('POST', '/api/auth/register', undefined, {
        name: 'Bench',
        email: 'bench@example.com',
        password: 'correct horse battery',
        terms_accepted: true,
      })
    ).json()) as { access_token: string };
    const token = reg.access_token;
    const list = (await (await call('GET', '/api/v1/workspaces', token)).json()) as {
      data: Array<{ id: string; slug: string }>;
    };
    const ws = list.data[0]!;
    for (let i = 0; i < 40; i++) {
      await call('POST', `/api/v1/content/${ws.slug}/guides/page-${i}.md`, token, {
        title: `Page ${i}`,
        description: `What page ${i} is about`,
        body: pageBody(i),
        publish: true,
      });
    }
    await call('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, token, {
      public_site: true,
      theme: 'default',
    });

    const url = `${base}/p/${ws.slug}/guides/page-7`;
    const page = await call('GET', `/p/${ws.slug}/guides/page-7`);
    const bytes = (await page.text()).length;
    await load(url, 2); // warm-up: JIT, caches
    const ownCpu = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1e6;
    };
    const folio = await measure(url, ownCpu);
    const folioRun = folio.run;
    // One connection: the latency of a request that does not queue behind others.
    const single = await load(url, DURATION, 1);

    const figures = [
      {
        figure: `Folio /p page (${bytes} B), ${CONNECTIONS} connections, ${DURATION} s: req/s`,
        value: folioRun.requests.average.toFixed(0),
      },
      { figure: 'Folio /p page, p50 latency', value: `${folioRun.latency.p50} ms` },
      {
        figure: 'Folio /p page, p99 latency',
        value: `${folioRun.latency.p99} ms`,
        goal: '< 5 ms (DocPlatform: < 50 ms)',
      },
      {
        figure: 'Folio /p page, 1 connection: p50 / p99 latency',
        value: `${single.latency.p50} / ${single.latency.p99} ms`,
        goal: 'p99 < 5 ms',
      },
      { figure: 'Folio server CPU per request', value: `${folio.cpuUsPerRequest.toFixed(0)} µs` },
      { figure: 'Folio non-2xx / errors', value: `${folioRun.non2xx} / ${folioRun.errors}` },
    ];

    if (NGINX) {
      const zip = Buffer.from(
        await (await call('GET', `/api/v1/workspaces/${ws.id}/export`, token)).arrayBuffer(),
      );
      await extract(zip, exportDir);
      const port = await freePort();
      nginx = await startNginx(exportDir, port);
      const nginxUrl = `http://127.0.0.1:${port}/guides/page-7.html`;
      await load(nginxUrl, 2);
      const measured = await measure(nginxUrl, nginx.cpu);
      const nginxRun = measured.run;
      const ratio = (100 * folioRun.requests.average) / nginxRun.requests.average;
      // Per CPU second, which the other processes on a shared machine do not distort.
      const cpuRatio = (100 * measured.cpuUsPerRequest) / folio.cpuUsPerRequest;
      figures.push(
        {
          figure: 'nginx (1 worker), same page exported: req/s',
          value: nginxRun.requests.average.toFixed(0),
        },
        { figure: 'nginx p99 latency', value: `${nginxRun.latency.p99} ms` },
        { figure: 'nginx worker CPU per request', value: `${measured.cpuUsPerRequest.toFixed(0)} µs` },
        { figure: 'Folio throughput / nginx (req/s)', value: `${ratio.toFixed(0)} %`, goal: '>= 40 %' },
        {
          figure: 'Folio throughput / nginx (per CPU second)',
          value: `${cpuRatio.toFixed(0)} %`,
          goal: '>= 40 %',
        },
      );
    } else {
      figures.push({
        figure: 'nginx comparison',
        value: 'skipped: nginx not installed (apt-get install -y nginx)',
      });
    }
    report('site', figures);
  } finally {
    await nginx?.stop();
    await folio.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(exportDir, { recursive: true, force: true });
  }
}
