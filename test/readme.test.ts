/**
 * The README's walkthrough is the first thing a newcomer runs. This test extracts its
 * shell blocks from README.md and runs them in order, as one bash script, against a fresh
 * server, so the README cannot drift from what Folio does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folioCommand, runProcess } from './helpers/cli.js';
import { startServer, type TestServer } from './helpers/server.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECTION = '## A first walk through Folio';

/** The ```sh blocks of the walkthrough section, in order. */
export function walkthroughBlocks(readme: string): string[] {
  const start = readme.indexOf(SECTION);
  if (start < 0) return [];
  const end = readme.indexOf('\n## ', start + SECTION.length);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

describe('the README walkthrough', () => {
  let server: TestServer;
  const blocks = walkthroughBlocks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());

  it('has shell blocks to run', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
  });

  it('runs top to bottom on a fresh instance, every command succeeding', async () => {
    const host = new URL(server.url).host;
    const [node, folio] = await folioCommand();
    const script = [
      'set -euo pipefail',
      // `npx folio` runs bin/folio.js over a bundle of this checkout, not a stale build.
      // A line break after each answer, so the checks below can read one answer per line.
      'curl() { command curl "$@"; echo; }',
      `npx() { if [ "$1" = folio ]; then shift; '${node}' '${folio}' "$@"; else command npx "$@"; fi; }`,
      ...blocks.map((block, i) => `echo "== block ${i + 1}"\n${block.replaceAll('localhost:3000', host)}`),
    ].join('\n');
    const result = await runProcess('bash', ['-c', script], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATA_DIR: server.dataDir,
        LOG_LEVEL: 'silent',
      },
      timeoutMs: 60_000,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`== block ${blocks.length}`);

    // What the walkthrough claims in its comments is what happened.
    expect(result.stdout).toContain("[ 'ada-docs' ]");
    expect(result.stdout).toMatch(/^start\/setup\.md$/m);
    expect(result.stdout).toContain('<title>Setup');
    expect(result.stdout).toMatch(/^301 \S+\/p\/handbook\/start\/setup$/m);
    expect(result.stdout).toMatch(/^Setup$/m);
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: 'ada@example.com', password: 'a new passphrase' },
    });
    expect(login.status).toBe(200);
  }, 90_000);
});
