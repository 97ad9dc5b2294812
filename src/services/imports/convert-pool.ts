/**
 * Converts an export in a worker thread of its own (one per import; imports are rare),
 * so turning a large Confluence space into Markdown never blocks the event loop. The
 * worker's entry is found as the render pool finds its own: beside the bundle, or from
 * the TypeScript sources through tsx's loader.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../errors.js';
import type { ExportFiles } from './archive.js';
import type { ImportFormat, ImportPlan } from './plan.js';

export { detectFormat } from './detect-format.js';

/** A conversion taking longer than this is stopped. */
const CONVERT_TIMEOUT_MS = 10 * 60 * 1000;

function startWorker(workerData: unknown): Worker {
  for (const candidate of ['./import-worker.js', '../import-worker.js']) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(file)) return new Worker(file, { workerData });
  }
  const tsxEsm = createRequire(import.meta.url).resolve('tsx/esm');
  const api = pathToFileURL(path.join(path.dirname(tsxEsm), 'api', 'index.mjs')).href;
  const entry = new URL('./convert-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

/** The plan for an export, made in a worker thread. */
export function convertInWorker(format: ImportFormat, files: ExportFiles): Promise<ImportPlan> {
  return new Promise((resolve, reject) => {
    const worker = startWorker({
      format,
      files: [...files].map(([name, data]) => [name, new Uint8Array(data)]),
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new AppError('VALIDATION_ERROR', 'The export took too long to convert'));
    }, CONVERT_TIMEOUT_MS);
    worker.once('message', (msg: { ok: true; plan: ImportPlan } | { ok: false; message: string }) => {
      clearTimeout(timer);
      void worker.terminate();
      if (!msg.ok) return reject(new Error(`Converting the export failed: ${msg.message}`));
      // Buffers arrive as Uint8Arrays from the worker.
      const plan = msg.plan;
      for (const asset of plan.assets) asset.data = Buffer.from(asset.data);
      resolve(plan);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`The import worker stopped (exit ${code})`));
    });
  });
}
