/**
 * The worker thread that converts an export (see convert-pool.ts): it receives the
 * format and the files, answers the plan, and exits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { planFor } from './convert.js';
import type { ImportFormat } from './plan.js';

const { format, files } = workerData as { format: ImportFormat; files: Array<[string, Uint8Array]> };
try {
  const plan = planFor(format, new Map(files.map(([name, data]) => [name, Buffer.from(data)])));
  parentPort?.postMessage({ ok: true, plan });
} catch (error) {
  parentPort?.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
}
