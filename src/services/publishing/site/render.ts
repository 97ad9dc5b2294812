/**
 * Turns a site source's pages into complete HTML documents, for the published site and
 * the static export alike. Bodies go through one shared Markdown renderer and its render
 * cache, keyed by the body's content hash plus everything else the HTML depends on (link
 * style, page path, the set of published pages), so a page is rendered once per change.
 */
import { contentHash } from '../../../domain/frontmatter.js';
import { renderSitePage, type ShellInput } from '../../../render/layout.js';
import { isPageHref, resolvePageTarget, resolveRelativeHref, splitHref } from '../../../render/links.js';
import { resolveDeferredLinks } from '../../../render/deferred-links.js';
import type { RenderContext, RenderedPage } from '../../../render/markdown.js';
import { plainPage } from '../../../render/plain-page.js';
import { RenderTimeoutError, type RenderPool } from '../../../render/render-pool.js';
import { RenderCache, renderCacheKey, type RenderCacheOptions } from '../../../render/render-cache.js';
import {
  breadcrumbs,
  folderListingHtml,
  navNodes,
  neighbours,
  type Linker,
  type SiteFolder,
  type SitePage,
} from './nav.js';
import { uploadNameOf, type SiteSource } from './source.js';

/** The site-wide parts of every document: title, theme, stylesheet, search, versions, footer. */
export type Chrome = ShellInput & { basePath: string; siteDescription?: string };

/** Per-document extras: where the page lives on the web and its feed. */
export interface DocumentExtras {
  canonicalUrl?: string;
  feedHref?: string;
  /** "Last updated … by" this name. */
  updatedBy?: string;
  /** "Edit this page" link. */
  editHref?: string;
}

/** How the site renderer renders bodies: its cache, its worker pool and its size limit. */
export interface SiteRendererOptions {
  cache?: RenderCacheOptions;
  pool: RenderPool;
  /** Bodies above this many UTF-8 bytes are shown as plain text, not rendered. */
  maxBytes: number;
}

/** The shared renderer; build one per process (one cache, one worker pool). */
export function createSiteRenderer(options: SiteRendererOptions) {
  const cache = new RenderCache(options.cache);
  /** Renders in progress by cache key, so concurrent requests for a page render it once. */
  const inFlight = new Map<string, Promise<RenderedPage>>();

  async function render(markdown: string, ctx: RenderContext): Promise<RenderedPage> {
    if (Buffer.byteLength(markdown, 'utf8') > options.maxBytes)
      return plainPage(markdown, { kind: 'too-large', limitBytes: options.maxBytes });
    try {
      return resolveDeferredLinks(await options.pool.renderPage(markdown, ctx.pagePath), ctx);
    } catch (err) {
      if (err instanceof RenderTimeoutError)
        return plainPage(markdown, { kind: 'too-slow', timeoutMs: err.timeoutMs });
      throw err;
    }
  }

  /** Renders a body for `page` of `source`, uncached. */
  function renderIn(source: SiteSource, page: SitePage, markdown: string, linker: Linker) {
    return render(markdown, {
      pagePath: page.path,
      resolveWikilink: (target) => {
        const found = source.wikilinks.resolvePath(target);
        return found ? linker.page(found) : null;
      },
      rewriteHref: (href) => rewriteHref(source, page, linker, href),
    });
  }

  /** A page body as sanitised HTML with its links pointing where `linker` says. */
  async function body(
    source: SiteSource,
    page: SitePage,
    markdown: string,
    linker: Linker,
  ): Promise<RenderedPage> {
    const key = renderCacheKey(
      contentHash(markdown),
      `${linker.key}\u0000${source.linkKey}\u0000${page.path}`,
    );
    const cached = cache.get(key) ?? (await inFlight.get(key));
    if (cached) return cached;
    const rendering = renderIn(source, page, markdown, linker);
    inFlight.set(key, rendering);
    try {
      const rendered = await rendering;
      cache.set(key, rendered);
      return rendered;
    } finally {
      inFlight.delete(key);
    }
  }

  return {
    cache,
    body,

    /**
     * A body exactly as {@link body} renders it, but not cached: previews change with every
     * keystroke and would push the site's published pages out of the cache.
     */
    uncachedBody: renderIn,

    /** A published page: navigation, breadcrumbs, table of contents, previous/next. */
    async pageDocument(
      source: SiteSource,
      page: SitePage,
      markdown: string,
      linker: Linker,
      chrome: Chrome,
      extras: DocumentExtras = {},
    ): Promise<string> {
      const rendered = await body(source, page, markdown, linker);
      const loc = { page: page.path };
      const { updatedBy, editHref, ...documentExtras } = extras;
      return renderSitePage({
        ...chrome,
        ...documentExtras,
        page: {
          ...(updatedBy ? { updatedBy } : {}),
          ...(editHref ? { editHref } : {}),
          title: page.title,
          ...(page.description ? { description: page.description } : {}),
          html: rendered.html,
          toc: rendered.toc,
          updatedAt: page.updatedAt,
        },
        nav: navNodes(source.map, linker, loc),
        breadcrumbs: breadcrumbs(source.map, linker, loc),
        ...neighbours(source.map, linker, page),
      });
    },

    /** The generated page of a folder that has no published `index.md`: a list of its entries. */
    folderDocument(
      source: SiteSource,
      folder: SiteFolder,
      linker: Linker,
      chrome: Chrome,
      extras: DocumentExtras = {},
    ): string {
      const loc = { folder: folder.path };
      return renderSitePage({
        ...chrome,
        ...extras,
        page: { title: folder.title, html: folderListingHtml(folder, linker), toc: [] },
        nav: navNodes(source.map, linker, loc),
        breadcrumbs: breadcrumbs(source.map, linker, loc),
      });
    },
  };
}

export type SiteRenderer = ReturnType<typeof createSiteRenderer>;

/**
 * Relative links as written in Markdown: a link to a published page goes to its URL (or
 * file), one to an upload to the site's copy; a link to a page that is not published
 * becomes the linker's dead link. Anything else is left alone.
 */
export function rewriteHref(source: SiteSource, page: SitePage, linker: Linker, href: string): string {
  const { fragment } = splitHref(href);
  const resolved = resolveRelativeHref(page.path, href);
  if (isPageHref(href)) {
    const target = resolved ? resolvePageTarget(resolved, source.byPath) : null;
    return target ? linker.page(target) + (fragment === null ? '' : `#${fragment}`) : linker.deadLink(href);
  }
  const upload = resolved ? uploadNameOf(resolved, source.workspaceSlug) : null;
  return upload ? linker.upload(upload) : href;
}

/** Percent-encodes each segment of a path, keeping the slashes. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
