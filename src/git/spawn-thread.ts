/**
 * Starts child processes from a worker thread (see evalThread). Node's `spawn` blocks its
 * thread until the child has called `exec`: on a busy machine, with a server of a few
 * hundred MB to fork, that was tens of milliseconds of the event loop per git command
 * (15 % of its busy time under load). From this thread the wait holds up no request.
 */
import { evalThread } from '../lib/eval-thread.js';

export interface SpawnJob {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string | undefined>;
  input?: string | Buffer;
  /** The process and its group are killed after this long. */
  timeoutMs: number;
}

export interface SpawnOutcome {
  /** The exit code, null when killed or never started. */
  code: number | null;
  stdout: Buffer;
  stderr: Buffer;
  timedOut: boolean;
  /** Why the process could not be started (ENOENT, EACCES, …). */
  startError?: string;
}

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { spawn } = require('node:child_process');
parentPort.on('message', ({ id, job }) => {
  const out = [];
  const err = [];
  let timedOut = false;
  let settled = false;
  const finish = (outcome) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    parentPort.postMessage({ id, outcome });
  };
  // detached: the process gets its own group, so a time-out also kills grandchildren
  // (git-remote-https, ssh) that would otherwise hold the pipes open.
  const child = spawn(job.command, job.args, {
    cwd: job.cwd, env: job.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true, windowsHide: true,
  });
  const timer = setTimeout(() => {
    timedOut = true;
    try { process.kill(-child.pid, 'SIGKILL'); } catch { child.kill('SIGKILL'); }
  }, job.timeoutMs);
  child.stdout.on('data', (c) => out.push(c));
  child.stderr.on('data', (c) => err.push(c));
  child.stdin.on('error', () => {}); // the process may exit before reading all its input
  child.stdin.end(job.input);
  child.on('error', (e) => finish({ code: null, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), timedOut: false, startError: e.message }));
  child.on('close', (code) => finish({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err), timedOut }));
});
`;

/** How long the thread waits for another job before it stops. */
const IDLE_MS = 20_000;

const spawner = evalThread<{ id: number; outcome: SpawnOutcome }>({
  source: WORKER_SOURCE,
  name: 'the process-spawning thread',
  idleMs: IDLE_MS,
});

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Runs `job` to completion and collects its output. Rejects only when the thread itself fails. */
export async function spawnCollect(job: SpawnJob): Promise<SpawnOutcome> {
  const { outcome } = await spawner.run({ job: { ...job, args: [...job.args] } });
  return { ...outcome, stdout: asBuffer(outcome.stdout), stderr: asBuffer(outcome.stderr) };
}
