import path from 'node:path';
import {
  isPageHref,
  resolveRelativeHref,
  safeDecode,
  scanLinks,
  type DestinationToken,
  type WikilinkToken,
} from './link-syntax.js';
import { isPagePath, normalizePagePath, stripPageExtension } from './paths.js';

/** A link from a page body to another page of the same workspace. */
export interface PageLink {
  kind: 'wiki' | 'markdown';
  /** Canonical workspace-relative `.md` path of the linked page. */
  target: string;
  /** The fragment after `#`, without the `#`. */
  anchor?: string;
  /** The link exactly as written, e.g. `[[guides/setup|Setup]]` or `[Setup](../guides/setup.md)`. */
  raw: string;
  /** Offset of `raw` in the body. */
  index: number;
}

interface ScannedLink extends PageLink {
  /** Where the target text sits in the body; rewrites replace only this span. */
  start: number;
  end: number;
  /** A Markdown link resolved against the linking page's folder. */
  relative: boolean;
  /** Rebuilds the target text for a new canonical path, keeping the author's form. */
  format: (newTarget: string, fromPath: string) => string;
}

// `![[x.png]]` embeds an attachment, not a page; only these extensions are treated that way
// so that page names with dots (`v1.2`, `release-2.0`) still count as pages.
const ASSET_EXT = /\.(png|jpe?g|gif|webp|svg|avif|bmp|ico|pdf|zip|mp3|mp4|webm|mov|wav|ogg|txt|csv|json)$/i;

/**
 * Finds the links of a page body that point at pages of the workspace: `[[target]]`,
 * `[[target.md]]`, `[[target#heading|label]]` (workspace-root relative) and Markdown inline
 * links or reference definitions whose destination ends in `.md` (relative to `fromPath`'s
 * folder, or root-relative with a leading `/`). Code spans, fenced code, external URLs,
 * attachment embeds and links that would leave the workspace are ignored.
 */
export function extractLinks(body: string, fromPath: string): PageLink[] {
  return scanPageLinks(body, fromPath).map(({ kind, target, anchor, raw, index }) =>
    anchor === undefined ? { kind, target, raw, index } : { kind, target, anchor, raw, index },
  );
}

/**
 * Rewrites the links of `body` (the page at `fromPath`) that point at `oldPath` so they point
 * at `newPath`, keeping each link's form: `.md` or not, leading `/`, label, anchor, title,
 * `./` prefix, angle brackets and percent-encoding. Relative Markdown links are recomputed
 * from `fromPath`'s folder. Use `relinkMovedPage` for the body of the moved page itself.
 */
export function rewriteLinks(
  body: string,
  fromPath: string,
  oldPath: string,
  newPath: string,
): { body: string; changed: boolean } {
  return applyRewrites(body, fromPath, fromPath, (target) => (target === oldPath ? newPath : undefined));
}

/**
 * For the body of a page moving from `oldPath` to `newPath`: recomputes its relative Markdown
 * links from the new folder so they still reach the same pages, and retargets links to the
 * page itself. Wikilinks to other pages are root-relative and stay as they are.
 */
export function relinkMovedPage(
  body: string,
  oldPath: string,
  newPath: string,
): { body: string; changed: boolean } {
  const folderChanged = path.posix.dirname(oldPath) !== path.posix.dirname(newPath);
  return applyRewrites(body, oldPath, newPath, (target, link) =>
    target === oldPath ? newPath : link.relative && folderChanged ? target : undefined,
  );
}

function applyRewrites(
  body: string,
  scanFrom: string,
  writeFrom: string,
  retarget: (target: string, link: ScannedLink) => string | undefined,
): { body: string; changed: boolean } {
  let out = body;
  // Back to front, so earlier offsets stay valid.
  for (const link of scanPageLinks(body, scanFrom).reverse()) {
    const next = retarget(link.target, link);
    if (next === undefined) continue;
    out = out.slice(0, link.start) + link.format(next, writeFrom) + out.slice(link.end);
  }
  return { body: out, changed: out !== body };
}

/** The page links among the body's links (see `link-syntax.ts`), in order of position. */
function scanPageLinks(body: string, fromPath: string): ScannedLink[] {
  const links: ScannedLink[] = [];
  for (const token of scanLinks(body)) {
    const link = token.kind === 'wikilink' ? wikiLink(token) : markdownLink(token, fromPath);
    if (link) links.push(link);
  }
  return links;
}

function wikiLink(token: WikilinkToken): ScannedLink | undefined {
  const { target: text, index, raw, targetStart: start, targetEnd: end } = token;
  if (text === '' || (token.embed && ASSET_EXT.test(text))) return undefined;
  const target = tryNormalize(text.replace(/^\//, ''));
  if (!target) return undefined;
  const hasMd = isPagePath(text);
  const slash = text.startsWith('/') ? '/' : '';
  const link: ScannedLink = {
    kind: 'wiki',
    target,
    raw,
    index,
    start,
    end,
    relative: false,
    format: (newTarget) => slash + (hasMd ? newTarget : stripPageExtension(newTarget)),
  };
  if (token.anchor !== null) link.anchor = token.anchor;
  return link;
}

function markdownLink(token: DestinationToken, fromPath: string): ScannedLink | undefined {
  const { href: dest, angle, index, raw } = token;
  if (token.kind === 'html-image') return undefined;
  const cut = dest.search(/[?#]/);
  const pathPart = cut < 0 ? dest : dest.slice(0, cut);
  const suffix = cut < 0 ? '' : dest.slice(cut);
  const encoded = /%[0-9a-f]{2}/i.test(pathPart);
  const unescaped = angle ? pathPart : pathPart.replace(/\\(.)/g, '$1');
  // External URLs, same-page anchors and other files are not links between pages.
  if (!isPageHref(unescaped)) return undefined;
  const resolved = resolveRelativeHref(fromPath, unescaped);
  const target = resolved ? tryNormalize(resolved) : undefined;
  if (!target) return undefined;
  const rootRelative = safeDecode(unescaped).startsWith('/');
  const dotSlash = pathPart.startsWith('./');
  const link: ScannedLink = {
    kind: 'markdown',
    target,
    raw,
    index,
    start: token.hrefStart,
    end: token.hrefEnd,
    relative: !rootRelative,
    format: (newTarget, from) => {
      let rel = rootRelative
        ? `/${newTarget}`
        : path.posix.relative(`/${path.posix.dirname(from)}`, `/${newTarget}`);
      if (dotSlash && !rel.startsWith('.') && !rootRelative) rel = `./${rel}`;
      if (!angle && (encoded || /[\s()<>]/.test(rel)))
        rel = encodeURI(rel).replace(/\(/g, '%28').replace(/\)/g, '%29');
      return rel + suffix;
    },
  };
  const hash = suffix.indexOf('#');
  if (hash >= 0) link.anchor = suffix.slice(hash + 1);
  return link;
}

function tryNormalize(p: string): string | undefined {
  try {
    return normalizePagePath(p);
  } catch {
    return undefined;
  }
}
