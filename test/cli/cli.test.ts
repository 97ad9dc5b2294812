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
});
