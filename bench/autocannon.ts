import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The parts of autocannon's JSON summary the benchmarks read. */
export interface Cannon {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

/**
 * Runs autocannon's CLI in a process of its own (so the load is not generated on the
 * benchmark's event loop) against `url`, and answers its JSON summary.
 */
export function autocannon(
  url: string,
  options: { seconds: number; connections: number; headers?: Record<string, string> },
): Promise<Cannon> {
  const cli = path.join(ROOT, 'node_modules/autocannon/autocannon.js');
  const args = [cli, '-c', String(options.connections), '-d', String(options.seconds), '--json'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      resolve(JSON.parse(out) as Cannon);
    });
  });
}
