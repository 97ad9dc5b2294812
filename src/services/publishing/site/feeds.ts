/**
 * The machine-readable files under each site root: sitemap.xml, robots.txt, rss.xml,
 * llms.txt and llms-full.txt (the llmstxt.org convention: a Markdown index of the docs,
 * and the full Markdown of every page in one file). Pure text builders over a source.
 */
import { escapeHtml } from '../../../render/escape.js';
import { encodePath } from '../../../render/published-markdown.js';
import { oneLine } from './markdown.js';
import type { Linker, SiteFolder, SitePage } from './nav.js';
import type { SiteSource } from './source.js';

/** What every feed needs to know about the site. */
export interface FeedSite {
  title: string;
  description: string;
  /** `https://docs.example.com` or the instance's PUBLIC_URL: prefixed to the linker's paths. */
  origin: string;
  linker: Linker;
}

/** The file names served at every site root, with their content types. */
export const FEED_FILES = {
  'sitemap.xml': 'application/xml; charset=utf-8',
  'robots.txt': 'text/plain; charset=utf-8',
  'rss.xml': 'application/rss+xml; charset=utf-8',
  'llms.txt': 'text/plain; charset=utf-8',
  'llms-full.txt': 'text/plain; charset=utf-8',
} as const;

export type FeedFile = keyof typeof FEED_FILES;

export const isFeedFile = (name: string): name is FeedFile => Object.hasOwn(FEED_FILES, name);

/** RSS keeps the most recently updated pages only. */
const RSS_ITEMS = 20;

const url = (site: FeedSite, path: string): string => site.origin + path;
const pageUrl = (site: FeedSite, page: SitePage): string => url(site, site.linker.page(page.path));

/** Every page with its last change, for search engines. */
export function sitemapXml(source: SiteSource, site: FeedSite): string {
  const urls = source.pages.map(
    (p) =>
      `<url><loc>${escapeHtml(pageUrl(site, p))}</loc><lastmod>${escapeHtml(isoDate(p.updatedAt))}</lastmod></url>`,
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
  );
}

/** Public sites invite crawlers and point at the sitemap; members-only sites turn them away. */
export function robotsTxt(site: FeedSite, isPublic: boolean): string {
  if (!isPublic) return 'User-agent: *\nDisallow: /\n';
  return `User-agent: *\nAllow: /\n\nSitemap: ${url(site, site.linker.folder(''))}sitemap.xml\n`;
}

/** RSS 2.0 of the most recently updated pages. */
export function rssXml(source: SiteSource, site: FeedSite): string {
  const recent = [...source.pages]
    .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))
    .slice(0, RSS_ITEMS);
  const items = recent.map(
    (p) =>
      '<item>' +
      `<title>${escapeHtml(p.title)}</title>` +
      `<link>${escapeHtml(pageUrl(site, p))}</link>` +
      `<guid isPermaLink="false">${escapeHtml(p.id)}</guid>` +
      `<pubDate>${escapeHtml(rfc822(p.updatedAt))}</pubDate>` +
      (p.description ? `<description>${escapeHtml(p.description)}</description>` : '') +
      '</item>',
  );
  const home = url(site, site.linker.folder(''));
  // Feed readers find the feed's own canonical address here (RSS Advisory Board's recommendation).
  const self = `<atom:link href="${escapeHtml(`${home}rss.xml`)}" rel="self" type="application/rss+xml"/>`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>' +
    `<title>${escapeHtml(site.title)}</title><link>${escapeHtml(home)}</link>${self}` +
    `<description>${escapeHtml(site.description || site.title)}</description>` +
    `<generator>Folio</generator>\n${items.join('\n')}\n</channel></rss>\n`
  );
}

/** llms.txt: the site as a Markdown index, one section per top-level folder, linking each page's Markdown. */
export function llmsTxt(source: SiteSource, site: FeedSite): string {
  const line = (p: SitePage): string =>
    `- [${markdownText(p.title)}](${markdownUrl(site, p)})${p.description ? `: ${oneLine(p.description)}` : ''}`;
  const collect = (folder: SiteFolder): SitePage[] => [
    ...(folder.index ? [folder.index] : []),
    ...folder.entries.flatMap((e) =>
      e.kind === 'page' ? [e.page] : e.kind === 'folder' ? collect(e.folder) : [],
    ),
  ];
  const root = source.map.root;
  const top = [
    ...(root.index ? [root.index] : []),
    ...root.entries.flatMap((e) => (e.kind === 'page' ? [e.page] : [])),
  ];
  const sections = [top.length ? `## Pages\n\n${top.map(line).join('\n')}` : ''];
  for (const entry of root.entries) {
    if (entry.kind !== 'folder') continue;
    sections.push(`## ${oneLine(entry.folder.title)}\n\n${collect(entry.folder).map(line).join('\n')}`);
  }
  return `${header(site)}${sections.filter(Boolean).join('\n\n')}\n`;
}

/**
 * llms-full.txt: every page's Markdown in reading order, each under its title and URL.
 * `bodies` are the pages' published Markdown bodies (links already made absolute, see
 * markdown.ts), in the order of `source.pages`.
 */
export function llmsFullTxt(source: SiteSource, site: FeedSite, bodies: readonly string[]): string {
  // Appended rather than joined: V8 links the pieces and copies them into one string only
  // when the text is first read, a turn of the event loop of its own (megabytes, for a large site).
  let text = header(site);
  source.pages.forEach((page, i) => {
    const description = page.description ? `> ${oneLine(page.description)}\n\n` : '';
    if (i > 0) text += '\n---\n\n';
    text += `# ${oneLine(page.title)}\n\nURL: ${pageUrl(site, page)}\n\n${description}${bodies[i] ?? ''}\n`;
  });
  return text;
}

/** The URL of a page's Markdown version: its workspace path under the site root. */
export const markdownUrl = (site: Pick<FeedSite, 'origin' | 'linker'>, page: SitePage): string =>
  site.origin + site.linker.folder('') + encodePath(page.path);

function header(site: FeedSite): string {
  return `# ${oneLine(site.title)}\n\n${site.description ? `> ${oneLine(site.description)}\n\n` : ''}`;
}

const markdownText = (text: string): string => oneLine(text).replace(/([[\]\\])/g, '\\$1');

function isoDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

function rfc822(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toUTCString();
}
