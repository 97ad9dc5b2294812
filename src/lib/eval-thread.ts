/**
 * A worker thread run from plain JavaScript source (no entry file in the bundle, no
 * TypeScript loader), for work that must not hold the event loop: started on first use,
 * referenced only while a job runs, so it never keeps the process alive, and stopped after
 * `idleMs` with nothing to do, giving back the memory of its own V8 heap.
 *
 * The source answers each message `{ id, ... }` it gets with one message carrying the same
 * `id`; `run` resolves with that answer. A thread that dies fails the jobs it was running,
 * and the next job starts a new one.
 */
import { Worker } from 'node:worker_threads';

export interface EvalThread<Answer> {
  /** Posts `message` (with `transfer`red buffers moved, not copied) and waits for its answer. */
  run(message: Record<string, unknown>, transfer?: ArrayBuffer[]): Promise<Answer>;
}

export function evalThread<Answer extends { id: number }>(options: {
  source: string;
  /** What the thread does, for the error of a thread that stopped: "the JSON parsing thread". */
  name: string;
  idleMs: number;
}): EvalThread<Answer> {
  let worker: Worker | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve: (answer: Answer) => void; reject: (e: Error) => void }>();

  const start = (): Worker => {
    const started = new Worker(options.source, { eval: true });
    started.unref();
    started.on('message', (answer: Answer) => {
      const job = pending.get(answer.id);
      pending.delete(answer.id);
      if (pending.size === 0) {
        started.unref();
        idleTimer = setTimeout(() => {
          // A job posted meanwhile has cleared this timer; the exit is not a failure.
          if (worker === started && pending.size === 0) {
            worker = null;
            void started.terminate();
          }
        }, options.idleMs);
        idleTimer.unref();
      }
      job?.resolve(answer);
    });
    const fail = (error: Error) => {
      if (worker === started) worker = null;
      for (const job of pending.values()) job.reject(error);
      pending.clear();
    };
    started.on('error', fail);
    started.on('exit', (code) => fail(new Error(`${options.name} stopped (exit code ${code})`)));
    return started;
  };

  return {
    run(message, transfer = []) {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        clearTimeout(idleTimer);
        worker ??= start();
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ ...message, id }, transfer);
      });
    },
  };
}
