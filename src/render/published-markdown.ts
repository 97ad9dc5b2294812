/**
 * A published page's Markdown made to work outside the site (the `<page>.md` files and
 * llms-full.txt of llmstxt.org): wikilinks become Markdown links to the page's URL (or
 * plain text when nothing is published there), relative links to pages and uploads become
 * absolute URLs, and a leading `# ` (the page's title, which the caller writes) is dropped.
 *
 * Pure and linear: one scan of the body, one lookup per link, the output built from its
 * pieces in one join. The site runs it in the render workers (render-pool.ts), so its
 * input is plain data that can cross to a thread: a {@link MarkdownLinkTable}.
 */
import { scanLinks, wikilinkTargetPath } from '../domain/link-syntax.js';
import {
  isExternalHref,
  isPageHref,
  pageRoute,
  resolvePageTarget,
  resolveRelativeHref,
  slugify,
  splitHref,
  type PathLookup,
} from './links.js';
import { WikilinkResolver } from './wikilink-resolver.js';
import { stripPageExtension } from '../domain/page-extensions.js';

/** Everything the rewrite knows of the site; plain data, so a worker thread can receive it. */
export interface MarkdownLinkTable {
  /** The published pages (wikilinks resolve by path, file name and title). */
  pages: Array<{ path: string; title: string }>;
  /** The source's root href on the site, e.g. `/p/docs/` or `/p/docs/v/1.0/`. */
  base: string;
  /** Prefixed to the site's root-relative hrefs: `https://docs.example.com`. */
  origin: string;
  /** The workspace's slug: links to the upload API's URLs name it. */
  workspaceSlug: string;
}

/** Hrefs of a site mounted at `base`: the part of the site's linker the rewrite needs. */
export interface SiteHrefs {
  page(path: string): string;
  upload(name: string): string;
  /** What a relative link to a page that is not published becomes. */
  deadLink(href: string): string;
}

/** Percent-encodes each segment of a path, keeping the slashes. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * The published site's hrefs under `base`: pages at their routes, uploads under `uploads/`,
 * other repository files at their own paths.
 */
export function siteHrefs(
  base: string,
): SiteHrefs & { folder(path: string): string; asset(path: string): string } {
  return {
    page: (path) => base + encodePath(pageRoute(path)),
    folder: (path) => (path ? `${base}${encodePath(path)}/` : base),
    upload: (name) => `${base}uploads/${encodeURIComponent(name)}`,
    asset: (path) => base + encodePath(path),
    deadLink: (href) => href,
  };
}

/**
 * The upload a resolved workspace path names: `uploads/<file>`, or the API's own URL
 * `/api/v1/content/<workspace>/uploads/<file>` (what the upload API answers as `url`,
 * so writers paste it). Null for anything else.
 */
export function uploadNameOf(resolvedPath: string, workspaceSlug: string): string | null {
  const upload = /^uploads\/([^/]+)$/.exec(resolvedPath);
  if (upload) return upload[1] ?? null;
  const api = `api/v1/content/${workspaceSlug}/uploads/`;
  if (!resolvedPath.startsWith(api)) return null;
  const name = resolvedPath.slice(api.length);
  return name && !name.includes('/') ? name : null;
}

/**
 * A relative link as written on page `pagePath`: a link to a published page goes to its
 * URL (keeping the fragment), one to an upload to the site's copy; a link to a page that
 * is not published becomes `hrefs.deadLink`. Anything else is left alone.
 */
export function rewriteSiteHref(
  site: { byPath: PathLookup; workspaceSlug: string; hrefs: SiteHrefs },
  pagePath: string,
  href: string,
): string {
  const { fragment } = splitHref(href);
  const resolved = resolveRelativeHref(pagePath, href);
  if (isPageHref(href)) {
    const target = resolved ? resolvePageTarget(resolved, site.byPath) : null;
    return target
      ? site.hrefs.page(target) + (fragment === null ? '' : `#${fragment}`)
      : site.hrefs.deadLink(href);
  }
  const upload = resolved ? uploadNameOf(resolved, site.workspaceSlug) : null;
  return upload ? site.hrefs.upload(upload) : href;
}

/** A {@link MarkdownLinkTable} with its lookups built; build once per table, reuse per page. */
export interface PreparedLinkTable {
  table: MarkdownLinkTable;
  byPath: Set<string>;
  wikilinks: WikilinkResolver;
  hrefs: SiteHrefs;
}

/** Builds the lookups of a link table (linear in its pages). */
export function prepareLinkTable(table: MarkdownLinkTable): PreparedLinkTable {
  return {
    table,
    byPath: new Set(table.pages.map((p) => p.path)),
    wikilinks: new WikilinkResolver(table.pages),
    hrefs: siteHrefs(table.base),
  };
}

const LEADING_H1 = /^\s*# [^\n]*(?:\n|$)/;

/** The body of page `pagePath` with its links made absolute (see the module comment), trimmed. */
export function rewritePublishedMarkdown(body: string, pagePath: string, links: PreparedLinkTable): string {
  const { table } = links;
  const absolute = (href: string): string =>
    href.startsWith('/') && !href.startsWith('//') ? table.origin + href : href;
  const site = { byPath: links.byPath, workspaceSlug: table.workspaceSlug, hrefs: links.hrefs };
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const token of scanLinks(body)) {
    if (token.kind === 'wikilink') {
      if (token.embed) continue;
      const label = stripPageExtension(token.label ?? (token.target || token.anchor || ''));
      const fragment = token.anchor ? `#${slugify(token.anchor)}` : '';
      const targetPath = token.target ? wikilinkTargetPath(token.target) : pagePath;
      const found = targetPath ? links.wikilinks.resolvePath(targetPath) : null;
      const text = found ? `[${label}](${absolute(links.hrefs.page(found))}${fragment})` : label;
      edits.push({ start: token.index, end: token.index + token.raw.length, text });
    } else {
      if (!token.href || isExternalHref(token.href) || token.href.startsWith('#')) continue;
      const href = rewriteSiteHref(site, pagePath, token.href);
      if (href !== token.href)
        edits.push({ start: token.hrefStart, end: token.hrefEnd, text: absolute(href) });
    }
  }
  // A destination can sit after an image nested in its link's text: edits go by position.
  edits.sort((a, b) => a.start - b.start);
  const pieces: string[] = [];
  let done = 0;
  for (const edit of edits) {
    if (edit.start < done) continue;
    pieces.push(body.slice(done, edit.start), edit.text);
    done = edit.end;
  }
  pieces.push(body.slice(done));
  return pieces.join('').replace(LEADING_H1, '').trim();
}
