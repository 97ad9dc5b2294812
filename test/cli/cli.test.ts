import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { folioCommand, runCli, runProcess } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { startServer, tempDir } from '../helpers/server.js';

describe('folio CLI', () => {
  it('lists its commands on --help', async () => {
    const res = await runCli(['--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Usage: folio <command>');
    expect(res.stdout).toContain('serve');
  });

  it('refuses an unknown command with exit code 2', async () => {
    const res = await runCli(['frobnicate']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('unknown command "frobnicate"');
  });

  it.each([
    ['PORT', 'abc'],
    ['EDITION', 'other'],
    ['DATABASE_URL', 'mysql://x'],
    ['FRONTMATTER_MODE', 'sometimes'],
  ])('stops the start when %s=%s, naming the variable', async (name, value) => {
    const res = await runCli(['serve'], { DATA_DIR: tempDir(), [name]: value });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${name}:`);
  });

  it('reports every invalid variable at once', async () => {
    const res = await runCli(['serve'], { DATA_DIR: tempDir(), PORT: 'abc', EDITION: 'other' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('PORT:');
    expect(res.stderr).toContain('EDITION:');
  });
});

describe('folio serve', () => {
  it('creates the data dir and database, serves health, and stops cleanly on SIGTERM', async () => {
    const dataDir = path.join(tempDir(), 'nested', 'data');
    const port = await freePort();
    const [node, folio] = await folioCommand();
    const child = spawn(node, [folio, 'serve'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (d: Buffer) => (log += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      // A machine busy with other suites can stretch the start well past its usual second.
      let health: Response | null = null;
      const deadline = Date.now() + 45_000;
      while (!health && Date.now() < deadline) {
        health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
        if (!health) await new Promise((r) => setTimeout(r, 100));
      }
      expect(health?.status).toBe(200);
      expect(fs.existsSync(path.join(dataDir, 'folio.db'))).toBe(true);
      // Logged once the first start's key generation is done, which may trail the first answer.
      for (let i = 0; i < 100 && !log.includes('Folio is listening'); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(log).toContain('Folio is listening');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(log).toContain('shutting down');
  }, 90_000);

  it('says in one line that the port is in use, and exits 1', async () => {
    const port = await freePort();
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(port, '127.0.0.1', resolve));
    try {
      const res = await runCli(['serve'], { DATA_DIR: tempDir(), PORT: String(port), HOST: '127.0.0.1' });
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(`folio: port ${port} is in use; set PORT\n`);
    } finally {
      busy.close();
    }
  }, 90_000);
});

describe('start-up errors', () => {
  /** A port something else listens on, for as long as the test runs. */
  async function busyPort(): Promise<{ port: number; close(): void }> {
    const port = await freePort();
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(port, '127.0.0.1', resolve));
    return { port, close: () => busy.close() };
  }

  it.each([
    [
      'a DATA_DIR that cannot be a directory',
      async () => {
        const file = path.join(tempDir(), 'a-file');
        fs.writeFileSync(file, '');
        return {
          env: { DATA_DIR: path.join(file, 'data') },
          says: /^folio: cannot mkdir .*a-file\/data: not a directory \(ENOTDIR\)\. DATA_DIR/,
        };
      },
    ],
    [
      'a PostgreSQL that does not answer',
      async () => ({
        env: { DATABASE_URL: `postgres://folio:s3cret-pw@127.0.0.1:${await freePort()}/folio` },
        says: /^folio: cannot use the PostgreSQL database at 127\.0\.0\.1:\d+\/folio: connect ECONNREFUSED .*Check DATABASE_URL/,
      }),
    ],
    [
      'a Redis that does not answer',
      async () => ({
        env: { REDIS_URL: `redis://:s3cret-pw@127.0.0.1:${await freePort()}` },
        says: /^folio: cannot reach Redis at 127\.0\.0\.1:\d+: connect ECONNREFUSED .*Check REDIS_URL/,
      }),
    ],
  ])(
    'says in one sentence what is wrong with %s, exit 1',
    async (_what, setup) => {
      const { env, says } = await setup();
      const res = await runCli(['serve'], { DATA_DIR: tempDir(), PORT: '0', HOST: '127.0.0.1', ...env });
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(says);
      expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(res.stderr).not.toContain('s3cret-pw');
    },
    60_000,
  );

  it('names METRICS_PORT when it is in use', async () => {
    const busy = await busyPort();
    try {
      const res = await runCli(['serve'], {
        DATA_DIR: tempDir(),
        PORT: '0',
        HOST: '127.0.0.1',
        FF_METRICS: 'true',
        METRICS_PORT: String(busy.port),
      });
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(
        `folio: METRICS_PORT ${busy.port} is in use on 127.0.0.1; choose another METRICS_PORT\n`,
      );
    } finally {
      busy.close();
    }
  }, 60_000);

  it('reports an unexpected error with its message and a stack naming src/ files, not the bundle', async () => {
    const dataDir = tempDir();
    const key = path.join(dataDir, 'not-a-key.pem');
    fs.writeFileSync(key, 'this is not a PEM key\n');
    const res = await runCli(['serve'], {
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      JWT_KEY_PATH: key,
    });
    expect(res.code).toBe(1);
    const [first, ...rest] = res.stderr.split('\n');
    // OpenSSL's own words for a file that holds no key.
    expect(first).toMatch(/^folio: stopped by an unexpected error: .*DECODER routines/);
    expect(rest.join('\n')).toMatch(/^\s+at .*src\/services\/identity\/jwt\.ts:\d+:\d+/m);
    expect(res.stderr).not.toContain('dist/');
    expect(res.stderr.length).toBeLessThan(2000);
  }, 60_000);
});

describe('commands that need the server stopped', () => {
  it('refuses `rebuild` and in-process `mcp` while a server runs on DATA_DIR, not after it stopped', async () => {
    const server = await startServer();
    const env = { DATA_DIR: server.dataDir };
    let stopped = false;
    try {
      const rebuild = await runCli(['rebuild'], env, { timeoutMs: 90_000 });
      expect(rebuild.code).toBe(1);
      expect(rebuild.stderr).toContain(
        `folio rebuild: a Folio server (pid ${process.pid}) is running on ${server.dataDir}; stop it first`,
      );
      expect(rebuild.stdout).toBe('');
      const mcp = await runCli(['mcp', '--workspace', 'docs', '--api-key', 'svc_live_x'], env, {
        timeoutMs: 90_000,
      });
      expect(mcp.code).toBe(1);
      expect(mcp.stderr).toContain(`a Folio server (pid ${process.pid}) is running on ${server.dataDir}`);

      await server.close();
      stopped = true;
      // A lock file whose process is gone (a server that crashed) does not count.
      const dead = await runProcess(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
        env: {},
      });
      const stale = path.join(server.dataDir, 'run', `server-${dead.stdout}.lock`);
      fs.writeFileSync(stale, `${dead.stdout}\n`);
      const after = await runCli(['rebuild'], env, { timeoutMs: 90_000 });
      expect(after.stderr).toBe('');
      expect(after.code).toBe(0);
      expect(fs.existsSync(stale)).toBe(false);
    } finally {
      if (!stopped) await server.close();
    }
  }, 180_000);

  it('takes neither a copy of a served DATA_DIR nor a lock whose pid now names another process for a running server', async () => {
    const server = await startServer();
    const lockFile = path.join(server.dataDir, 'run', `server-${process.pid}.lock`);
    let lock: string;
    const copy = path.join(tempDir(), 'data-copy');
    try {
      lock = fs.readFileSync(lockFile, 'utf8');
      // A backup copied while the server runs: its lock names a live process, the server.
      fs.cpSync(server.dataDir, copy, { recursive: true });
      const rebuild = await runCli(['rebuild'], { DATA_DIR: copy }, { timeoutMs: 90_000 });
      expect(rebuild.stderr).toBe('');
      expect(rebuild.code).toBe(0);
      const mcp = await runCli(['mcp', '--workspace', 'docs', '--api-key', 'svc_live_x'], { DATA_DIR: copy });
      expect(mcp.stderr).not.toContain('is running');
      expect(mcp.stderr).toContain('the API key is invalid');
      // The original is still refused.
      const original = await runCli(['rebuild'], { DATA_DIR: server.dataDir }, { timeoutMs: 90_000 });
      expect(original.code).toBe(1);
      expect(original.stderr).toContain(`a Folio server (pid ${process.pid}) is running`);
    } finally {
      await server.close();
    }
    // The server is gone and its pid went to another process (here: this test, started
    // at another time than the lock says), as after a crash and a container restart.
    fs.writeFileSync(lockFile, JSON.stringify({ ...JSON.parse(lock), started: '1' }));
    const after = await runCli(['rebuild'], { DATA_DIR: server.dataDir }, { timeoutMs: 90_000 });
    expect(after.stderr).toBe('');
    expect(after.code).toBe(0);
    expect(fs.existsSync(lockFile)).toBe(false);
  }, 180_000);
});
