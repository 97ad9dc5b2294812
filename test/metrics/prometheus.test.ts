/**
 * A real Prometheus server (Debian's `prometheus`) scrapes Folio's METRICS_PORT listener,
 * and a series written by a page write is read back through Prometheus's query API.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.js';
import { freePort } from '../helpers/ports.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser } from '../helpers/users.js';

const PROMETHEUS = '/usr/bin/prometheus';
const prometheusAvailable = fs.existsSync(PROMETHEUS);
if (!prometheusAvailable)
  console.warn('[folio tests] /usr/bin/prometheus is missing: the Prometheus scrape test is skipped.');

describe.skipIf(!prometheusAvailable)('Prometheus scraping METRICS_PORT', () => {
  let server: TestServer;
  let prometheus: ChildProcess;
  let dir: string;
  let queryPort: number;

  beforeAll(async () => {
    dir = await makeTempDir('folio-prometheus-');
    const metricsPort = await freePort();
    queryPort = await freePort();
    server = await startServer({ env: { FF_METRICS: 'true', METRICS_PORT: String(metricsPort) } });
    const config = [
      'global:',
      '  scrape_interval: 1s',
      'scrape_configs:',
      '  - job_name: folio',
      '    static_configs:',
      `      - targets: ['127.0.0.1:${metricsPort}']`,
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'prometheus.yml'), `${config}\n`);
    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${queryPort}`,
      ],
      { stdio: 'ignore' },
    );
  }, 60_000);

  afterAll(async () => {
    prometheus?.kill('SIGTERM');
    await server?.close();
    await removeTempDir(dir);
  });

  it('reads back the page-write counter through the query API', async () => {
    const owner = await registerUser(server);
    const ws = (await server.request('GET', '/api/v1/workspaces', { token: owner.token })).body.data[0];
    const created = await server.request('POST', `/api/v1/content/${ws.slug}/scraped.md`, {
      token: owner.token,
      body: { title: 'Scraped', body: 'Seen by Prometheus.\n' },
    });
    expect(created.status).toBe(201);

    const query = encodeURIComponent('folio_page_changes_total{change="created",job="folio"}');
    const value = await eventually(async () => {
      const res = await fetch(`http://127.0.0.1:${queryPort}/api/v1/query?query=${query}`).catch(() => null);
      if (!res?.ok) return null;
      const body = (await res.json()) as { data: { result: { value: [number, string] }[] } };
      const sample = body.data.result[0];
      return sample && Number(sample.value[1]) >= 1 ? Number(sample.value[1]) : null;
    }, 45_000);
    expect(value).toBe(1);
  }, 60_000);
});
