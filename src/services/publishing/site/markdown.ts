/**
 * A published page as Markdown for machines (llmstxt.org): `<page>.md` beside each HTML
 * page and the sections of llms-full.txt. The page's title heads it once (a leading `# `
 * of the body is that title, so it is not repeated), the description follows as a quote,
 * and every link is made to work outside the site (see `render/published-markdown.ts`).
 *
 * The link rewriting runs in the render workers under their time budget, and its result
 * is cached by the page's revision (its content hash) and everything else it depends on,
 * like the rendered HTML: a page is rewritten once per change, never on the event loop.
 */
import { LruCache } from '../../../lib/lru-cache.js';
import type { MarkdownLinkTable } from '../../../render/published-markdown.js';
import { RenderTimeoutError, type RenderPool } from '../../../render/render-pool.js';
import type { SitePage } from './nav.js';
import type { SiteSource } from './source.js';
import { nextLoopTurn } from '../../../lib/event-loop-turn.js';

/** Where the Markdown is read: absolute URLs are `origin` plus hrefs under the source's `base`. */
export interface MarkdownSite {
  origin: string;
  /** The source's root href on the site (what its site linker is made from). */
  base: string;
}

/** Bodies of at most about this many bytes share one worker job (a larger one goes alone). */
const BATCH_CHARS = 2 * 1024 * 1024;

/** Rewrites and caches published Markdown; build one per process, beside the site renderer. */
export function createPublishedMarkdown(pool: RenderPool, maxCacheBytes = 32 * 1024 * 1024) {
  const cache = new LruCache<string>(2_000, maxCacheBytes, (text) => text.length * 2 + 64);
  /** Rewrites in progress by cache key, so concurrent requests for a page run it once. */
  const inFlight = new Map<string, Promise<string>>();

  const keyOf = (source: SiteSource, page: SitePage, site: MarkdownSite): string =>
    [page.contentHash, page.path, source.workspaceSlug, source.linkKey, site.base, site.origin].join(
      '\u0000',
    );

  /** One worker job over `pages`; a job out of time leaves its bodies as written. */
  async function rewrite(
    table: MarkdownLinkTable,
    pages: Array<{ path: string; body: string }>,
  ): Promise<string[]> {
    try {
      return await pool.publishedMarkdown(table, pages);
    } catch (err) {
      if (!(err instanceof RenderTimeoutError)) throw err;
      return pages.map((p) => p.body.trim());
    }
  }

  /** The bodies of `pages` with their links rewritten and leading h1 dropped, in order. */
  async function bodies(source: SiteSource, pages: SitePage[], site: MarkdownSite): Promise<string[]> {
    const results: Array<Promise<string>> = [];
    const missing: Array<{ page: SitePage; key: string; index: number }> = [];
    pages.forEach((page, index) => {
      const key = keyOf(source, page, site);
      const known = cache.get(key);
      const running = known === undefined ? inFlight.get(key) : undefined;
      results[index] = known !== undefined ? Promise.resolve(known) : (running ?? Promise.resolve(''));
      if (known === undefined && !running) missing.push({ page, key, index });
    });
    if (missing.length > 0) {
      const table: MarkdownLinkTable = {
        pages: source.pages.map((p) => ({ path: p.path, title: p.title })),
        base: site.base,
        origin: site.origin,
        workspaceSlug: source.workspaceSlug,
      };
      let batch: Array<{ key: string; index: number; path: string; body: string }> = [];
      let chars = 0;
      const flush = () => {
        if (batch.length === 0) return;
        const jobPages = batch;
        const job = rewrite(
          table,
          jobPages.map(({ path, body }) => ({ path, body })),
        );
        jobPages.forEach(({ key, index }, i) => {
          const one = job.then((out) => {
            const text = out[i] ?? '';
            cache.set(key, text);
            return text;
          });
          inFlight.set(key, one);
          void one.then(
            () => inFlight.delete(key),
            () => inFlight.delete(key),
          );
          results[index] = one;
        });
        batch = [];
        chars = 0;
      };
      const read = await Promise.all(missing.map(async (m) => ({ ...m, body: await source.body(m.page) })));
      // Decoding what was read and copying it to the worker are passes over every byte of
      // it (megabytes, for a large page): not in the same turn of the event loop.
      await nextLoopTurn();
      for (const { key, index, page, body } of read) {
        if (chars > 0 && chars + body.length > BATCH_CHARS) flush();
        batch.push({ key, index, path: page.path, body });
        chars += body.length;
      }
      flush();
    }
    return Promise.all(results);
  }

  return {
    bodies,

    /** The whole page as Markdown: title, description, body. */
    async page(source: SiteSource, page: SitePage, site: MarkdownSite): Promise<string> {
      const [body = ''] = await bodies(source, [page], site);
      return `# ${oneLine(page.title)}\n\n${page.description ? `> ${oneLine(page.description)}\n\n` : ''}${body}\n`;
    },
  };
}

export type PublishedMarkdown = ReturnType<typeof createPublishedMarkdown>;

/** Collapses whitespace, for titles and descriptions on one line. */
export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
