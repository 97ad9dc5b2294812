/**
 * The Markdown stack (markdown-it and its plugins, highlight.js, sanitize-html with
 * postcss) is slow and large to load (bench/RESULTS.md, startup). Most processes never
 * render Markdown at all (an API-only server, `folio mcp`, the other CLI commands), so
 * it loads on the first render instead of at start-up. Pages render in worker threads
 * (render-pool.ts); comments, which are small, render here.
 */
import type * as MarkdownEngine from './markdown.js';

let engine: Promise<typeof MarkdownEngine> | undefined;

const loadEngine = () => (engine ??= import('./markdown.js'));

/** A comment body as safe HTML (see `renderCommentBody` in markdown.ts). */
export async function renderComment(markdown: string): Promise<string> {
  return (await loadEngine()).renderCommentBody(markdown);
}
