/**
 * A render worker thread (see render-pool.ts): renders page bodies with their links
 * deferred and comment bodies, rewrites published Markdown, runs the quality checks and
 * derives the plain text search indexes, one message at a time. It holds no site state,
 * so any worker can render any page.
 */
import { parentPort } from 'node:worker_threads';
import { deferredLinkContext } from './deferred-links.js';
import { createRenderer, renderCommentBody } from './markdown.js';
import { markdownPlainText } from './plain-text.js';
import { prepareLinkTable, rewritePublishedMarkdown } from './published-markdown.js';
import { analyseWorkspace } from './quality.js';
import type { RenderJob, RenderReply } from './render-pool.js';

const renderer = createRenderer();

function run(job: RenderJob): RenderReply {
  if (job.kind === 'comment') return { id: job.id, ok: true, html: renderCommentBody(job.body) };
  if (job.kind === 'plainText')
    return { id: job.id, ok: true, plainTexts: job.bodies.map((body) => markdownPlainText(body)) };
  if (job.kind === 'quality') return { id: job.id, ok: true, quality: analyseWorkspace(job.pages) };
  if (job.kind === 'markdown') {
    const links = prepareLinkTable(job.table);
    const markdown = job.pages.map((p) => rewritePublishedMarkdown(p.body, p.path, links));
    return { id: job.id, ok: true, markdown };
  }
  const deferred = deferredLinkContext(job.pagePath);
  return { id: job.id, ok: true, deferred: deferred.finish(renderer.render(job.body, deferred.ctx)) };
}

parentPort?.on('message', (job: RenderJob) => {
  let reply: RenderReply;
  try {
    reply = run(job);
  } catch (err) {
    reply = { id: job.id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(reply);
});
parentPort?.postMessage({ id: 0, ready: true } satisfies RenderReply);
