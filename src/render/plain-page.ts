/**
 * What a page shows when it is not rendered as Markdown: its text, escaped, in a `<pre>`,
 * under a notice saying why. Used for pages above the render size limit and pages whose
 * render ran out of time, so one page can neither stall the server nor vanish.
 */
import { escapeHtml } from './escape.js';
import type { RenderedPage } from './markdown.js';

/** Why a page is shown as plain text. */
export type PlainPageReason =
  { kind: 'too-large'; limitBytes: number } | { kind: 'too-slow'; timeoutMs: number };

function mebibytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return mib >= 1 ? `${Number(mib.toFixed(1))} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

function notice(reason: PlainPageReason): string {
  return reason.kind === 'too-large'
    ? `This page is larger than ${mebibytes(reason.limitBytes)}, the most Folio renders, so it is shown as plain text.`
    : `This page took longer than ${reason.timeoutMs / 1000} s to render, so it is shown as plain text.`;
}

/** The page body as escaped preformatted text under a notice; no table of contents or links. */
export function plainPage(markdown: string, reason: PlainPageReason): RenderedPage {
  const html =
    '<div class="callout callout-warning" role="note"><p class="callout-title">Shown as plain text</p>\n' +
    `<p>${escapeHtml(notice(reason))}</p>\n</div>\n` +
    `<pre class="hljs" tabindex="0"><code class="hljs">${escapeHtml(markdown)}</code></pre>\n`;
  return { html, toc: [], links: [] };
}
