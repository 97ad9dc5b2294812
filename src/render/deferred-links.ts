/**
 * Link resolution split from rendering, so a page can render in a worker thread while the
 * site's page list and link style stay in the main thread.
 *
 * In the worker, {@link deferredLinkContext} stands in for a {@link RenderContext}: each
 * wikilink and each rewritten href becomes a marker (private-use characters around a
 * per-render random nonce and a number), which the sanitiser keeps as plain text. Back in
 * the main thread, {@link resolveDeferredLinks} replaces every marker in one pass with
 * what the real context says. A writer cannot forge a marker without the nonce.
 */
import { randomBytes } from 'node:crypto';
import { escapeHtml, safeHref } from './escape.js';
import type { EmbedOptions } from './dialects/index.js';
import type { RenderContext, RenderedPage } from './markdown.js';

/** A rendered page whose links still name their targets through markers. */
export interface DeferredPage {
  page: RenderedPage;
  nonce: string;
  /** Wikilink targets (workspace paths) and their `#fragment` ('' for none), by marker number. */
  wikilinks: Array<{ path: string; fragment: string }>;
  /** Hrefs as written, to go through `rewriteHref`, by marker number. */
  hrefs: string[];
  /** Attachment embeds (`![[name|…]]`), to go through `embedFile`, by marker number. */
  embeds?: Array<{ name: string; options: EmbedOptions }>;
}

const OPEN = '\uE000';
const CLOSE = '\uE001';
/** `W`: a wikilink's opening tag, `E`: its end tag, `H`: an href, `F`: an attachment embed. */
const MARKER = /\uE000([0-9a-f]{32})([WEHF])(\d+)\uE001/g;

/** A render context for a worker: records what needs resolving and answers with markers. */
export function deferredLinkContext(pagePath: string): {
  ctx: RenderContext;
  finish: (page: RenderedPage) => DeferredPage;
} {
  const nonce = randomBytes(16).toString('hex');
  const wikilinks: DeferredPage['wikilinks'] = [];
  const hrefs: string[] = [];
  const embeds: NonNullable<DeferredPage['embeds']> = [];
  const marker = (kind: string, n: number) => `${OPEN}${nonce}${kind}${n}${CLOSE}`;
  return {
    ctx: {
      pagePath,
      resolveWikilink: () => null,
      rewriteHref: (href) => marker('H', hrefs.push(href) - 1),
      embedFile: (name, options) => marker('F', embeds.push({ name, options }) - 1),
      deferWikilink: (path, fragment) => {
        const n = wikilinks.push({ path, fragment }) - 1;
        return { open: marker('W', n), close: marker('E', n) };
      },
    },
    finish: (page) => ({ page, nonce, wikilinks, hrefs, ...(embeds.length ? { embeds } : {}) }),
  };
}

/**
 * Replaces the markers of a deferred page using `ctx`, the page's real link context, so
 * the result equals a direct render with `ctx`: a wikilink to a missing page becomes a
 * `<span class="wikilink-missing">`, one to a published page an `<a class="wikilink">`.
 */
export function resolveDeferredLinks(deferred: DeferredPage, ctx: RenderContext): RenderedPage {
  const { page, nonce, wikilinks, hrefs, embeds = [] } = deferred;
  if (wikilinks.length === 0 && hrefs.length === 0 && embeds.length === 0) return page;
  const resolved = wikilinks.map(({ path }) => ctx.resolveWikilink(path));
  const html = page.html.replace(MARKER, (whole, markerNonce: string, kind: string, index: string) => {
    const n = Number(index);
    if (markerNonce !== nonce) return whole;
    if (kind === 'F') {
      const embed = embeds[n];
      if (embed === undefined) return whole;
      return ctx.embedFile
        ? ctx.embedFile(embed.name, embed.options)
        : `<span class="wikilink-missing" title="Missing file: ${escapeHtml(embed.name)}">${escapeHtml(embed.name)}</span>`;
    }
    if (kind === 'H') {
      const href = hrefs[n];
      if (href === undefined) return whole;
      // The sanitiser saw only the marker, so the scheme check happens here.
      return safeHref(ctx.rewriteHref ? ctx.rewriteHref(href) : href);
    }
    const link = wikilinks[n];
    const href = resolved[n];
    if (link === undefined || href === undefined) return whole;
    if (kind === 'E') return href === null ? '</span>' : '</a>';
    return href === null
      ? `<span class="wikilink-missing" title="Missing page: ${escapeHtml(link.path)}">`
      : `<a class="wikilink" href="${escapeHtml(href + link.fragment)}">`;
  });
  return { ...page, html };
}
