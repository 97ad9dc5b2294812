/**
 * Turns a site source's pages into complete HTML documents, for the published site and
 * the static export alike. Bodies go through one shared Markdown renderer and its render
 * cache, keyed by the body's content hash plus everything else the HTML depends on (link
 * style, page path, the set of published pages), so a page is rendered once per change.
 */
import { contentHash } from '../../../domain/frontmatter.js';
import { renderSitePage, type ShellInput } from '../../../render/layout.js';
import { bodyNeeds } from '../../../render/dialect-assets.js';
import { extensionlessPageTarget, isPageHref, splitHref } from '../../../render/links.js';
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
import { encodePath, rewriteSiteHref } from '../../../render/published-markdown.js';
import { createPublishedMarkdown } from './markdown.js';
import type { SiteSource } from './source.js';
import { assetForHref } from './assets.js';
import { expandNoteEmbeds } from './transclusion.js';
import { IMAGE_EXTENSIONS, type EmbedOptions } from '../../../render/dialects/index.js';
import { escapeHtml, safeHref } from '../../../render/escape.js';

export { encodePath };

/** The site-wide parts of every document: title, theme, stylesheet, search, versions, footer. */
export type Chrome = ShellInput & {
  basePath: string;
  siteDescription?: string;
  /** Where KaTeX's stylesheet and the Mermaid scripts are, for pages with math or diagrams. */
  dialectAssets?: { katexCss?: string; mermaidScripts?: string[] };
};

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

  /** Renders a body (its note embeds already expanded) for `page` of `source`, uncached. */
  function renderExpanded(source: SiteSource, page: SitePage, markdown: string, linker: Linker) {
    return render(markdown, {
      pagePath: page.path,
      resolveWikilink: (target) => {
        const found = source.wikilinks.resolvePath(target);
        return found ? linker.page(found) : null;
      },
      rewriteHref: (href) => rewriteHref(source, page, linker, href),
      embedFile: (name, options) => embedFileHtml(source, page, linker, name, options),
    });
  }

  /** The body as it renders: Obsidian note embeds expanded, the file index loaded. */
  async function prepare(source: SiteSource, page: SitePage, markdown: string): Promise<string> {
    const [expanded] = await Promise.all([
      expandNoteEmbeds(markdown, page.path, {
        resolve: (target) => source.wikilinks.resolvePath(target),
        body: async (path) => {
          const embedded = source.byPath.get(path);
          return embedded ? source.body(embedded) : '';
        },
      }),
      source.assets(),
    ]);
    return expanded;
  }

  /** Renders a body for `page` of `source`, uncached. */
  async function renderIn(source: SiteSource, page: SitePage, markdown: string, linker: Linker) {
    return renderExpanded(source, page, await prepare(source, page, markdown), linker);
  }

  /** A page body as sanitised HTML with its links pointing where `linker` says. */
  async function body(
    source: SiteSource,
    page: SitePage,
    original: string,
    linker: Linker,
  ): Promise<RenderedPage> {
    const markdown = await prepare(source, page, original);
    const key = renderCacheKey(
      contentHash(markdown),
      `${linker.key}\u0000${source.linkKey}\u0000${page.path}`,
    );
    const cached = cache.get(key) ?? (await inFlight.get(key));
    if (cached) return cached;
    const rendering = renderExpanded(source, page, markdown, linker);
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
    /** Published Markdown (`<page>.md`, llms-full.txt), rewritten in the same workers. */
    markdown: createPublishedMarkdown(options.pool),

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
      const needs = bodyNeeds(rendered.html);
      const { dialectAssets, ...shell } = chrome;
      const { updatedBy, editHref, ...documentExtras } = extras;
      return renderSitePage({
        ...shell,
        ...documentExtras,
        ...(needs.math && dialectAssets?.katexCss ? { stylesheets: [dialectAssets.katexCss] } : {}),
        ...(needs.diagrams && dialectAssets?.mermaidScripts ? { scripts: dialectAssets.mermaidScripts } : {}),
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
      const { dialectAssets: _unused, ...shell } = chrome;
      return renderSitePage({
        ...shell,
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
  const rewritten = rewriteSiteHref(
    { byPath: source.byPath, workspaceSlug: source.workspaceSlug, hrefs: linker },
    page.path,
    href,
  );
  if (rewritten !== href || isPageHref(href)) return rewritten;
  // Neither a page nor an upload: a repository file beside the page (an image, a PDF).
  const asset = source.loadedAssets ? assetForHref(source.loadedAssets, page.path, href) : null;
  const { fragment } = splitHref(href);
  const anchor = fragment === null ? '' : `#${fragment}`;
  if (asset) return linker.asset(asset) + anchor;
  // Docusaurus's links name a page without its extension (`./install` for `install.mdx`).
  const target = extensionlessPageTarget(page.path, href, source.byPath);
  return target ? linker.page(target) + anchor : href;
}

/**
 * An Obsidian attachment embed: the file of that name closest to the page, as an image
 * (with the `|300` or `|300x200` size) or, for other files, a link; a mark when missing.
 */
export function embedFileHtml(
  source: SiteSource,
  page: SitePage,
  linker: Linker,
  name: string,
  options: EmbedOptions,
): string {
  const path = source.loadedAssets?.findByName(name, page.path) ?? null;
  if (!path)
    return `<span class="wikilink-missing" title="Missing file: ${escapeHtml(name)}">${escapeHtml(name)}</span>`;
  const href = safeHref(linker.asset(path));
  if (!IMAGE_EXTENSIONS.test(path))
    return `<a class="embed-file" href="${href}">${escapeHtml(options.alt ?? name)}</a>`;
  const alt = options.alt ?? name.slice(name.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  const size =
    (options.width ? ` width="${options.width}"` : '') +
    (options.height ? ` height="${options.height}"` : '');
  return `<img src="${href}" alt="${escapeHtml(alt)}"${size} loading="lazy" decoding="async">`;
}
