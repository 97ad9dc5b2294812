/**
 * A pool of worker threads that render Markdown (and do the other work whose cost grows
 * with what writers send: the published Markdown's link rewriting, the quality checks and
 * the plain text search indexes), so a large or hostile page is handled beside the
 * server's event loop instead of on it: `/api/health`, the API and cached site pages keep
 * answering while a page renders. Each render has a time budget; a
 * worker still busy when it runs out is stopped (synchronous code cannot be interrupted
 * any other way) and a fresh one takes its place.
 *
 * Workers start on the first render and stop after 20 seconds idle, so a server that
 * renders nothing pays nothing for them and the memory of a burst comes back soon after.
 * The budget starts once a worker has loaded the renderer, so a slow start on a busy
 * machine does not count against a page.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DeferredPage } from './deferred-links.js';
import type { MarkdownLinkTable } from './published-markdown.js';
import type { WorkspacePageInput, WorkspaceQualityReport } from './quality.js';

/** A message to a worker. */
export type RenderJob =
  | { id: number; kind: 'page'; body: string; pagePath: string }
  | { id: number; kind: 'comment'; body: string }
  | { id: number; kind: 'markdown'; table: MarkdownLinkTable; pages: Array<{ path: string; body: string }> }
  | { id: number; kind: 'quality'; pages: WorkspacePageInput[] }
  | { id: number; kind: 'plainText'; bodies: string[] };

/** A worker's answer to one {@link RenderJob}. */
export type RenderReply =
  | { id: 0; ready: true }
  | { id: number; ok: true; deferred: DeferredPage }
  | { id: number; ok: true; html: string }
  | { id: number; ok: true; markdown: string[] }
  | { id: number; ok: true; quality: WorkspaceQualityReport }
  | { id: number; ok: true; plainTexts: string[] }
  | { id: number; ok: false; message: string };

/** Thrown when a render did not finish within the pool's time budget. */
export class RenderTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`rendering took longer than ${timeoutMs} ms and was stopped`);
    this.name = 'RenderTimeoutError';
  }
}

/** Size and time budget of a {@link RenderPool}. */
export interface RenderPoolOptions {
  /** Worker threads; 0 or absent sizes the pool from the CPU count. */
  workers?: number;
  /** Time budget of one render, from the moment a worker takes it. */
  timeoutMs: number;
  /** How long an idle worker lives (default 20 seconds). */
  idleMs?: number;
}

/** Renders Markdown off the main thread; see the module comment. */
export interface RenderPool {
  /** A page body rendered with its links deferred (resolve them with `resolveDeferredLinks`). */
  renderPage(body: string, pagePath: string): Promise<DeferredPage>;
  /** A comment body as sanitised HTML (see `renderCommentBody`). */
  renderComment(body: string): Promise<string>;
  /** Page bodies with their links made absolute (see `rewritePublishedMarkdown`), in order. */
  publishedMarkdown(
    table: MarkdownLinkTable,
    pages: Array<{ path: string; body: string }>,
  ): Promise<string[]>;
  /** The quality checks of a workspace's pages (see `analyseWorkspace`). */
  analyseQuality(pages: WorkspacePageInput[]): Promise<WorkspaceQualityReport>;
  /**
   * The text a reader sees of each Markdown body, what search indexes (see
   * `markdownPlainText`), in order. The bodies are shared among the workers in one message
   * to each, since every message costs the event loop a post and a reply.
   */
  plainTexts(bodies: readonly string[]): Promise<string[]>;
  /** Stops every worker; renders in progress or queued fail. */
  close(): Promise<void>;
}

interface Pending {
  job: RenderJob;
  resolve: (reply: RenderReply) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Set once the worker has loaded the renderer; the time budget starts after that. */
  ready: boolean;
  current?: Pending & { timer?: NodeJS.Timeout };
  idleTimer?: NodeJS.Timeout;
}

/** Two workers at least, so one slow page cannot hold every other render; at most four. */
export function defaultRenderWorkers(): number {
  return Math.min(4, Math.max(2, os.availableParallelism() - 1));
}

/**
 * Starts a worker on its entry file: the bundle puts it beside dist/folio.js (this code
 * may sit in dist/chunks/), a tsc build beside this file. From the TypeScript sources
 * (tests, `tsx`) a small script registers tsx's loader in the worker first, because
 * Node 20 does not apply `--import` loaders to a worker's entry module.
 */
function startWorker(): Worker {
  for (const candidate of ['./render-worker.js', '../render-worker.js']) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(file)) return new Worker(file);
  }
  // tsx's ESM API (its package exports give `require` the CommonJS build, which cannot
  // locate its hooks from an eval'd script).
  const tsxEsm = createRequire(import.meta.url).resolve('tsx/esm');
  const api = pathToFileURL(path.join(path.dirname(tsxEsm), 'api', 'index.mjs')).href;
  const entry = new URL('./render-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true });
}

/** Creates a pool; see {@link RenderPool}. */
export function createRenderPool(options: RenderPoolOptions): RenderPool {
  const size = options.workers || defaultRenderWorkers();
  const idleMs = options.idleMs ?? 20_000;
  const slots = new Set<Slot>();
  const queue: Pending[] = [];
  let nextId = 1;
  let closed = false;

  function retire(slot: Slot): void {
    slots.delete(slot);
    clearTimeout(slot.idleTimer);
    if (slot.current) clearTimeout(slot.current.timer);
    void slot.worker.terminate();
  }

  function spawn(): Slot {
    const worker = startWorker();
    worker.unref();
    const slot: Slot = { worker, ready: false };
    worker.on('message', (reply: RenderReply) => {
      const current = slot.current;
      if ('ready' in reply) {
        slot.ready = true;
        if (current) startBudget(slot, current);
        return;
      }
      if (!current || current.job.id !== reply.id) return;
      clearTimeout(current.timer);
      slot.current = undefined;
      current.resolve(reply);
      dispatch();
    });
    const fail = (err: Error) => {
      const current = slot.current;
      slot.current = undefined;
      retire(slot);
      current?.reject(err);
      dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (slots.has(slot)) fail(new Error(`render worker exited with code ${code}`));
    });
    slots.add(slot);
    return slot;
  }

  function idleSlot(): Slot | undefined {
    for (const slot of slots) if (!slot.current) return slot;
    return slots.size < size ? spawn() : undefined;
  }

  /** The budget covers rendering only: a worker that is still starting is not timed. */
  function startBudget(slot: Slot, pending: Pending): void {
    const timer = setTimeout(() => {
      slot.current = undefined;
      retire(slot);
      pending.reject(new RenderTimeoutError(options.timeoutMs));
      dispatch();
    }, options.timeoutMs);
    timer.unref();
    if (slot.current === pending) slot.current.timer = timer;
  }

  function dispatch(): void {
    while (!closed && queue.length > 0) {
      const slot = idleSlot();
      if (!slot) return;
      const pending = queue.shift()!;
      clearTimeout(slot.idleTimer);
      slot.current = pending;
      if (slot.ready) startBudget(slot, pending);
      slot.worker.postMessage(pending.job);
      slot.idleTimer = undefined;
    }
    for (const slot of slots) {
      if (slot.current || slot.idleTimer) continue;
      slot.idleTimer = setTimeout(() => retire(slot), idleMs);
      slot.idleTimer.unref();
    }
  }

  function submit(job: RenderJob): Promise<RenderReply> {
    if (closed) return Promise.reject(new Error('the render pool is closed'));
    return new Promise((resolve, reject) => {
      queue.push({ job, resolve, reject });
      dispatch();
    });
  }

  function unwrap(reply: RenderReply): RenderReply & { ok: true } {
    if ('ready' in reply) throw new Error('render worker answered a job with its start-up message');
    if (!reply.ok) throw new Error(`rendering failed: ${reply.message}`);
    return reply;
  }

  return {
    async renderPage(body, pagePath) {
      const reply = unwrap(await submit({ id: nextId++, kind: 'page', body, pagePath }));
      if (!('deferred' in reply)) throw new Error('render worker answered a page with a comment');
      return reply.deferred;
    },

    async renderComment(body) {
      const reply = unwrap(await submit({ id: nextId++, kind: 'comment', body }));
      if (!('html' in reply)) throw new Error('render worker answered a comment with a page');
      return reply.html;
    },

    async publishedMarkdown(table, pages) {
      const reply = unwrap(await submit({ id: nextId++, kind: 'markdown', table, pages }));
      if (!('markdown' in reply)) throw new Error('render worker answered Markdown with something else');
      return reply.markdown;
    },

    async analyseQuality(pages) {
      const reply = unwrap(await submit({ id: nextId++, kind: 'quality', pages }));
      if (!('quality' in reply)) throw new Error('render worker answered quality with something else');
      return reply.quality;
    },

    async plainTexts(bodies) {
      const share = Math.ceil(bodies.length / size);
      const jobs: Promise<RenderReply>[] = [];
      for (let start = 0; start < bodies.length; start += share) {
        jobs.push(submit({ id: nextId++, kind: 'plainText', bodies: bodies.slice(start, start + share) }));
      }
      return (await Promise.all(jobs)).flatMap((answer) => {
        const reply = unwrap(answer);
        if (!('plainTexts' in reply))
          throw new Error('render worker answered plain text with something else');
        return reply.plainTexts;
      });
    },

    async close() {
      closed = true;
      const waiting = queue.splice(0);
      const running = [...slots].flatMap((slot) => (slot.current ? [slot.current] : []));
      const stopped = [...slots].map((slot) => {
        slots.delete(slot);
        clearTimeout(slot.idleTimer);
        if (slot.current) clearTimeout(slot.current.timer);
        return slot.worker.terminate();
      });
      for (const pending of [...waiting, ...running]) pending.reject(new Error('the render pool is closed'));
      await Promise.all(stopped);
    },
  };
}
