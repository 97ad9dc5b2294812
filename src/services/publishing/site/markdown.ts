/**
 * A published page as Markdown for machines (llmstxt.org): `<page>.md` beside each HTML
 * page and the sections of llms-full.txt. The page's title heads it once (a leading `# `
 * of the body is that title, so it is not repeated), the description follows as a quote,
 * and every link is made to work outside the site: wikilinks become Markdown links to the
 * page's URL (or plain text when nothing is published there), relative links to pages
 * and uploads become absolute URLs.
 */
import { scanLinks, wikilinkTargetPath } from '../../../domain/link-syntax.js';
import { isExternalHref, slugify } from '../../../render/links.js';
import type { Linker, SitePage } from './nav.js';
import { rewriteHref } from './render.js';
import type { SiteSource } from './source.js';

/** Where the Markdown is read: absolute URLs are the origin plus the linker's paths. */
export interface MarkdownSite {
  origin: string;
  linker: Linker;
}

/** A page's Markdown in parts, for callers that put something between title and body. */
export interface PublishedMarkdown {
  title: string;
  description: string;
  body: string;
}

const LEADING_H1 = /^\s*# [^\n]*(?:\n|$)/;

const absolute = (site: MarkdownSite, href: string): string =>
  href.startsWith('/') && !href.startsWith('//') ? site.origin + href : href;

/** The body with its links resolved (see the module comment) and its leading h1 dropped. */
export function publishedMarkdownParts(
  source: SiteSource,
  page: SitePage,
  body: string,
  site: MarkdownSite,
): PublishedMarkdown {
  let out = body;
  // Back to front, so earlier offsets stay valid.
  for (const token of scanLinks(body).reverse()) {
    let replacement: string | null = null;
    let [start, end] = [token.index, token.index + token.raw.length];
    if (token.kind === 'wikilink') {
      if (token.embed) continue;
      const label = (token.label ?? (token.target || token.anchor || '')).replace(/\.md$/i, '');
      const fragment = token.anchor ? `#${slugify(token.anchor)}` : '';
      const targetPath = token.target ? wikilinkTargetPath(token.target) : page.path;
      const found = targetPath ? source.wikilinks.resolvePath(targetPath) : null;
      replacement = found ? `[${label}](${absolute(site, site.linker.page(found))}${fragment})` : label;
    } else {
      if (!token.href || isExternalHref(token.href) || token.href.startsWith('#')) continue;
      const href = rewriteHref(source, page, site.linker, token.href);
      if (href === token.href) continue;
      replacement = absolute(site, href);
      [start, end] = [token.hrefStart, token.hrefEnd];
    }
    out = out.slice(0, start) + replacement + out.slice(end);
  }
  return { title: page.title, description: page.description, body: out.replace(LEADING_H1, '').trim() };
}

/** The whole page as Markdown: title, description, body. */
export function publishedMarkdown(
  source: SiteSource,
  page: SitePage,
  body: string,
  site: MarkdownSite,
): string {
  const parts = publishedMarkdownParts(source, page, body, site);
  return `# ${oneLine(parts.title)}\n\n${parts.description ? `> ${oneLine(parts.description)}\n\n` : ''}${parts.body}\n`;
}

/** Collapses whitespace, for titles and descriptions on one line. */
export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
