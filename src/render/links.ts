/**
 * Link and heading helpers for the renderer, the published site, the export and the
 * quality checks: heading ids, site routes, hrefs between exported files, page lookups
 * and the link list (with lines) the quality checks read. Pure functions, no I/O.
 *
 * What a link is (wikilink and Markdown link syntax, targets, anchors, code masking)
 * lives in `src/domain/link-syntax.ts`, shared with the page-move rewrites of
 * `src/domain/wikilinks.ts`; its names are re-exported here for the renderer's modules.
 */
import {
  isExternalHref,
  maskCode,
  resolveRelativeHref,
  safeDecode,
  scanLinks,
  splitHref,
  wikilinkTargetPath,
  type LinkToken,
} from '../domain/link-syntax.js';
import { pagePathCandidates, stripPageExtension } from '../domain/page-extensions.js';

export {
  isExternalHref,
  isPageHref,
  maskCode,
  normalisePath,
  parseWikilink,
  resolveRelativeHref,
  splitHref,
  wikilinkTargetPath,
  type WikilinkParts,
} from '../domain/link-syntax.js';

/** Anything with `has`, so callers can pass a `Set` of paths or a `Map` keyed by path. */
export interface PathLookup {
  has(path: string): boolean;
}

/**
 * The heading slugger used for ids and `#heading` references: lower case, accents
 * dropped, punctuation removed, runs of spaces and hyphens become one hyphen. Letters
 * of every script are kept (NFC afterwards, so Hangul recomposes). Deterministic, so an
 * id only changes when the heading text does.
 */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/[\s-]+/g, '-');
  return slug || 'section';
}

/**
 * Returns a slug not yet in `taken` (`intro`, `intro-1`, …) and records it, like
 * markdown-it-anchor. `next` remembers where each slug's search for a free suffix ended
 * (`taken` only grows), so n equal headings cost n steps rather than n²/2.
 */
export function uniqueSlug(slug: string, taken: Set<string>, next = new Map<string, number>()): string {
  let candidate = slug;
  let i = next.get(slug) ?? 1;
  if (taken.has(candidate))
    for (candidate = `${slug}-${i}`; taken.has(candidate);) candidate = `${slug}-${++i}`;
  if (candidate !== slug) next.set(slug, i + 1);
  taken.add(candidate);
  return candidate;
}

/**
 * Finds the existing page a link path means: `x.md` itself, else `x/index.md` or
 * `x/index.mdx` (a link to a folder). Null when none exists.
 */
export function resolvePageTarget(pagePath: string, existing: PathLookup): string | null {
  if (existing.has(pagePath)) return pagePath;
  const folder = stripPageExtension(pagePath);
  return pagePathCandidates(`${folder}/index`).find((p) => existing.has(p)) ?? null;
}

/**
 * The page a relative link without a file extension names, as Docusaurus reads such links
 * (`./install` for `install.mdx` or `install.md`, `./guides` for `guides/index.mdx`), or
 * null: a link with an extension, outside or only a fragment is not one.
 */
export function extensionlessPageTarget(fromPath: string, href: string, existing: PathLookup): string | null {
  if (isExternalHref(href) || href.startsWith('#')) return null;
  const resolved = resolveRelativeHref(fromPath, href)?.replace(/\/+$/, '');
  if (!resolved || /\.[^/]*$/.test(resolved)) return null;
  return (
    pagePathCandidates(resolved).find((p) => existing.has(p)) ?? resolvePageTarget(`${resolved}.md`, existing)
  );
}

/**
 * The site route of a page: `guides/setup.md` → `guides/setup`,
 * `guides/index.md` → `guides/`, `index.md` → ''. Append it to the site's base path.
 */
export function pageRoute(pagePath: string): string {
  const bare = stripPageExtension(pagePath);
  if (bare === 'index') return '';
  return bare.endsWith('/index') ? bare.slice(0, -'index'.length) : bare;
}

/**
 * A relative href from one file to another, both workspace paths; the static export
 * uses it so links work offline (`guides/a.html` → `api/b.html` is `../api/b.html`).
 */
export function relativeHref(fromFile: string, toFile: string): string {
  const from = fromFile.split('/').slice(0, -1);
  const to = toFile.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.length - common;
  return '../'.repeat(up) + to.slice(common).join('/');
}

/** One link found in a Markdown body by {@link extractLinks}. */
export interface ExtractedLink {
  kind: 'wikilink' | 'link' | 'image';
  /** The href or wikilink target as written. */
  href: string;
  /** Workspace path of the page or file linked to; null for external and same-page links. */
  targetPath: string | null;
  /** The `#fragment`, decoded, or null. */
  anchor: string | null;
  /** Images only: the alt text ('' when empty, null when an HTML `<img>` has none). */
  alt?: string | null;
  /** True for an HTML `<img>` (where `alt=""` deliberately marks a decorative image). */
  html?: boolean;
  /** 1-based line of the link in the body. */
  line: number;
}

/**
 * The wikilinks, inline links and images, reference definitions and HTML `<img>` tags of
 * a Markdown body, outside code, as the quality checks and the site's upload references
 * read them: the syntax comes from `scanLinks`; this adds workspace targets, decoded
 * anchors and lines. Embeds (`![[…]]`) are left out.
 */
export function extractLinks(body: string, fromPath: string): ExtractedLink[] {
  const lineOf = lineFinder(body);
  const found = scanLinks(body).map((token) => ({ token, line: lineOf(token.index) }));
  found.sort((a, b) => a.line - b.line || KIND_ORDER[a.token.kind] - KIND_ORDER[b.token.kind]);
  return found.flatMap(({ token, line }) => extractedLink(token, line, fromPath) ?? []);
}

// Within a line: wikilinks, then links and images, definitions, HTML images; the order the
// quality report has always listed them in.
const KIND_ORDER: Record<LinkToken['kind'], number> = {
  wikilink: 0,
  link: 1,
  image: 1,
  definition: 2,
  'html-image': 3,
};

function extractedLink(token: LinkToken, line: number, fromPath: string): ExtractedLink | null {
  if (token.kind === 'wikilink') {
    const targetPath = token.target ? wikilinkTargetPath(token.target) : null;
    // An embed (`![[…]]`) shows a file rather than linking to a page.
    if (token.embed || (token.target && !targetPath)) return null;
    return { kind: 'wikilink', href: token.target, targetPath, anchor: token.anchor, line };
  }
  const { href } = token;
  const image = token.kind === 'image' || token.kind === 'html-image';
  const external = isExternalHref(href);
  const fragment = splitHref(href).fragment;
  return {
    kind: image ? 'image' : 'link',
    href,
    targetPath: external ? null : resolveRelativeHref(fromPath, href),
    anchor: external || fragment === null ? null : safeDecode(fragment),
    ...(image ? { alt: token.text } : {}),
    ...(token.kind === 'html-image' ? { html: true } : {}),
    line,
  };
}

/** Maps an offset of `text` to its 1-based line. */
function lineFinder(text: string): (offset: number) => number {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** Drops an ATX closing sequence (`## Title ##`); a loop, not a regex, to stay linear on odd input. */
function stripClosingHashes(source: string): string {
  const text = source.trimEnd();
  let i = text.length;
  while (i > 0 && text[i - 1] === '#') i--;
  if (i === text.length || (i > 0 && !/\s/.test(text[i - 1] ?? ''))) return text;
  return text.slice(0, i).trimEnd();
}

/** Heading text as the renderer sees it: inline Markdown syntax removed. */
export function plainHeadingText(source: string): string {
  return stripClosingHashes(source)
    .replace(/!?\[\[(?:[^[\]|]*\|)?([^[\]]*)\]\]/g, '$1')
    .replace(/!?\[([^[\]]*)\]\([^()]*\)/g, '$1')
    .replace(/<[^<>]+>/g, '')
    .replace(/[*_~`]/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|~<>])/g, '$1')
    .trim();
}

/**
 * The ids the renderer gives this body's headings (ATX and setext), in order, unique.
 * Matches the renderer for ordinary headings; services that have a render result
 * should prefer its `toc` ids.
 */
export function extractHeadingIds(body: string): string[] {
  const taken = new Set<string>();
  const suffixes = new Map<string, number>();
  const lines = maskCode(body, false).split('\n');
  const ids: string[] = [];
  lines.forEach((line, i) => {
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*))?$/.exec(line);
    const next = lines[i + 1];
    let text: string | null = null;
    if (atx) text = atx[1] ?? '';
    else if (
      next !== undefined &&
      line.trim() &&
      /^ {0,3}(?:=+|-+)[ \t]*$/.test(next) &&
      !/^\s*[-*+>]/.test(line)
    )
      text = line;
    if (text !== null) ids.push(uniqueSlug(slugify(plainHeadingText(text)), taken, suffixes));
  });
  return ids;
}
