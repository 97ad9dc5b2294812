/**
 * Starts child processes from a worker thread. Node's `spawn` blocks its thread until the
 * child has called `exec`: on a busy machine, with a server of a few hundred MB to fork,
 * that was tens of milliseconds of the event loop per git command (15 % of its busy time
 * under load). From this thread the wait holds up no request.
 *
 * The worker is plain JavaScript evaluated from a string, so it needs no entry file in
 * the bundle and no TypeScript loader. It starts on first use, is referenced only while a
 * process runs, so it never keeps the process alive, and stops after a while with nothing
 * to run, giving back the memory of its own V8 heap.
 */
import { Worker } from 'node:worker_threads';

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

let worker: Worker | null = null;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 1;
const pending = new Map<number, { resolve: (o: SpawnOutcome) => void; reject: (e: Error) => void }>();

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function thread(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, { eval: true });
  started.unref();
  started.on('message', ({ id, outcome }: { id: number; outcome: SpawnOutcome }) => {
    const job = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) {
      started.unref();
      idleTimer = setTimeout(() => {
        // A job posted meanwhile has cleared this timer; the exit is not a failure.
        if (worker === started && pending.size === 0) {
          worker = null;
          void started.terminate();
        }
      }, IDLE_MS);
      idleTimer.unref();
    }
    job?.resolve({ ...outcome, stdout: asBuffer(outcome.stdout), stderr: asBuffer(outcome.stderr) });
  });
  // A worker that dies fails what it was running; the next job starts a new one.
  const fail = (error: Error) => {
    if (worker === started) worker = null;
    for (const job of pending.values()) job.reject(error);
    pending.clear();
  };
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`the process-spawning thread stopped (exit code ${code})`)));
  worker = started;
  return started;
}

/** Runs `job` to completion and collects its output. Rejects only when the thread itself fails. */
export function spawnCollect(job: SpawnJob): Promise<SpawnOutcome> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    clearTimeout(idleTimer);
    const running = thread();
    pending.set(id, { resolve, reject });
    running.ref();
    running.postMessage({ id, job: { ...job, args: [...job.args] } });
  });
}
