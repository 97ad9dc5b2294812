import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { RATE_BUCKETS } from '../../src/ratelimit/buckets.js';
import { folioCommand } from './cli.js';
import { eventually } from './eventually.js';
import { freePort } from './ports.js';
import { request, type RequestOptions, type TestResponse, tempDir, testEnv } from './server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A Folio running as `bin/folio.js serve` in its own process, which a test may kill outright. */
export interface ServerProcess {
  url: string;
  port: number;
  dataDir: string;
  request(method: string, urlPath: string, options?: RequestOptions): Promise<TestResponse>;
  /** Starts the server (again: same port, same DATA_DIR) and resolves once `/api/ready` answers 200. */
  start(): Promise<void>;
  /** SIGKILL, as a crash or an OOM kill would: nothing is flushed or saved. Resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM, the graceful stop; resolves once it is gone. */
  stop(): Promise<void>;
}

/**
 * A server process on a fixed free loopback port (or `port`) and DATA_DIR (so a restarted server is
 * the same address to browsers and clients), from the production bundle (rebuilt first
 * when src/ changed), with every rate limit off. Not started until `start()`.
 */
export async function serverProcess(
  options: { env?: Record<string, string>; dataDir?: string; port?: number } = {},
): Promise<ServerProcess> {
  const [node, folio] = await folioCommand();
  const dataDir = options.dataDir ?? tempDir();
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let output = '';
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...testEnv(dataDir),
    PORT: String(port),
    LOG_LEVEL: 'warn',
    RATE_LIMITS: Object.keys(RATE_BUCKETS)
      .map((bucket) => `${bucket}=off`)
      .join(','),
    ...options.env,
  };
  const ended = (process: ChildProcess) =>
    process.exitCode !== null || process.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => process.once('close', () => resolve()));
  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    child = null;
    if (!running) return;
    running.kill(signal);
    await ended(running);
  };
  return {
    url,
    port,
    dataDir,
    request: (method, urlPath, opts = {}) => request(url, method, urlPath, opts),
    async start() {
      if (child) throw new Error('the server process is already running');
      output = '';
      const started = spawn(node, [folio, 'serve'], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      started.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      started.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      await eventually(async () => {
        if (started.exitCode !== null) throw new Error(`the server exited (${started.exitCode}):\n${output}`);
        return (await fetch(`${url}/api/ready`).catch(() => null))?.status === 200;
      }, 60_000);
    },
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
  };
}
