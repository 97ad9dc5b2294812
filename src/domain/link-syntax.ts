/**
 * The syntax of links in a Markdown body, in one place: `[[wikilinks]]`, inline links and
 * images, reference definitions and HTML `<img>`, with their offsets, and the code masking
 * that keeps examples of syntax from counting. Pure functions, no I/O.
 *
 * A small scanner, not a full CommonMark parse: callers run it over whole workspaces and
 * need only where each link is and what it names. What a link means is theirs to decide:
 * `wikilinks.ts` finds and rewrites links between pages, `render/links.ts` turns links into
 * lines, hrefs and routes for the published site and the quality checks.
 */
import { isPagePath } from './page-extensions.js';

/** The parts of `[[target#anchor|label]]`; `target` is '' for a same-page `[[#anchor]]`. */
export interface WikilinkParts {
  target: string;
  anchor: string | null;
  label: string | null;
}

/** Parses the text between `[[` and `]]`; null when it cannot be a wikilink. */
export function parseWikilink(inner: string): WikilinkParts | null {
  if (!inner.trim() || /[[\]\n]/.test(inner)) return null;
  const bar = inner.indexOf('|');
  const ref = (bar === -1 ? inner : inner.slice(0, bar)).trim();
  const label = bar === -1 ? null : inner.slice(bar + 1).trim() || null;
  const hash = ref.indexOf('#');
  const target = (hash === -1 ? ref : ref.slice(0, hash)).trim();
  const anchor = hash === -1 ? null : ref.slice(hash + 1).trim() || null;
  if (!target && !anchor) return null;
  return { target, anchor, label };
}

/**
 * Normalises a workspace-relative path: `.` and `..` segments resolved, leading `/`
 * dropped. Null when it climbs above the workspace root.
 */
export function normalisePath(path: string): string | null {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(segment);
  }
  return out.join('/');
}

/** The page path a wikilink target names: workspace-relative, `.md` added when no page extension. */
export function wikilinkTargetPath(target: string): string | null {
  const path = normalisePath(target);
  if (!path) return null;
  return isPagePath(path) ? path : `${path}.md`;
}

/** True for hrefs with a scheme (`https:`, `mailto:`) or protocol-relative (`//host`). */
export function isExternalHref(href: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//');
}

/** Splits an href into path and fragment (query kept on the path side). */
export function splitHref(href: string): { path: string; fragment: string | null } {
  const hash = href.indexOf('#');
  return hash === -1
    ? { path: href, fragment: null }
    : { path: href.slice(0, hash), fragment: href.slice(hash + 1) };
}

/** `decodeURIComponent`, or the value as written when it is not valid percent-encoding. */
export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The path part of an href, decoded: no query, no fragment. */
function hrefPath(href: string): string {
  return safeDecode(splitHref(href).path.split('?')[0] ?? '');
}

/**
 * Resolves a relative href (no scheme) written on page `fromPath` to a workspace path,
 * without query or fragment. A leading `/` means the workspace root. Null when the link
 * leaves the workspace or is only a fragment.
 */
export function resolveRelativeHref(fromPath: string, href: string): string | null {
  const path = hrefPath(href);
  if (!path) return null;
  const base = path.startsWith('/') ? '' : fromPath.split('/').slice(0, -1).join('/');
  const resolved = normalisePath(base ? `${base}/${path}` : path);
  return resolved || null;
}

/** True for a relative link to a Markdown or MDX page (`../setup.md#install`, `./tabs.mdx`). */
export function isPageHref(href: string): boolean {
  if (isExternalHref(href) || href.startsWith('#')) return false;
  return isPagePath(hrefPath(href));
}

/** Replaces every character but line breaks with a space, so offsets and lines survive. */
const blank = (text: string): string => text.replace(/[^\r\n]/g, ' ');

/**
 * Blanks out fenced code blocks, HTML comments and (unless `inline` is false) inline
 * code spans, keeping offsets and line breaks, so scanners ignore examples of syntax.
 * Indented code blocks are left alone: telling them from list continuations needs a
 * real parse.
 */
export function maskCode(body: string, inline = true): string {
  const masked = maskFences(body).replace(/<!--[\s\S]*?-->/g, blank);
  return inline ? maskCodeSpans(masked) : masked;
}

// `[^\n]*` rather than `.*`, so a CRLF body's `\r` does not hide its fences.
const FENCE_LINE = /^(?:[ \t]*>)*([ \t]*)(`{3,}|~{3,})([^\n]*)$/;

/**
 * Fences follow CommonMark loosely: after any blockquote markers and indentation (list
 * items indent their fences), closed by the same character at least as long. An unclosed
 * fence runs to the end of the body, unless it is indented four or more: outside a list
 * that is an indented code block showing a fence, and must not hide the rest of the page.
 */
function maskFences(body: string): string {
  const lines = body.split('\n');
  const out: string[] = [];
  // Per fence character, the shortest run known to have no closer from some earlier line
  // on; a later run at least as long has none either, so deep openers never rescan.
  const unclosed: Record<string, number> = {};
  for (let i = 0; i < lines.length;) {
    const end = fenceEnd(lines, i, unclosed);
    if (end === null) out.push(lines[i++] ?? '');
    else while (i < end) out.push(blank(lines[i++] ?? ''));
  }
  return out.join('\n');
}

/** When `lines[start]` opens a fence, the index just past its closing line; else null. */
function fenceEnd(lines: string[], start: number, unclosed: Record<string, number>): number | null {
  const [, indent = '', run = '', info = ''] = FENCE_LINE.exec(lines[start] ?? '') ?? [];
  const char = run[0] ?? '';
  // A backtick fence's info string cannot hold a backtick: "```a`" is inline code.
  if (!run || (char === '`' && info.includes('`'))) return null;
  if (run.length < (unclosed[char] ?? Infinity)) {
    for (let i = start + 1; i < lines.length; i++) {
      const [, , closing = '', rest = ''] = FENCE_LINE.exec(lines[i] ?? '') ?? [];
      if (closing[0] === char && closing.length >= run.length && !rest.trim()) return i + 1;
    }
    unclosed[char] = run.length;
  }
  return indent.replace(/\t/g, '    ').length >= 4 ? null : lines.length;
}

/**
 * Blanks code spans: a run of backticks closed by a run of the same length, within one
 * paragraph (a span cannot cross a blank line). Unmatched backticks stay literal.
 */
function maskCodeSpans(text: string): string {
  let out = '';
  let done = 0;
  for (const paragraph of text.matchAll(/[^\n]*(?:\n(?![ \t\r]*\n)[^\n]*)*/g)) {
    const prose = paragraph[0];
    const run = /`+/g;
    for (let m = run.exec(prose); m; m = run.exec(prose)) {
      const closer = new RegExp(`(?<!\`)${m[0]}(?!\`)`, 'g');
      closer.lastIndex = m.index + m[0].length;
      const close = closer.exec(prose);
      if (!close) continue;
      const from = paragraph.index + m.index;
      const to = paragraph.index + close.index + close[0].length;
      out += text.slice(done, from) + blank(text.slice(from, to));
      done = to;
      run.lastIndex = close.index + close[0].length;
    }
  }
  return out + text.slice(done);
}

interface TokenBase {
  /** Offset of the link in the body, and the link exactly as written there. */
  index: number;
  raw: string;
}

/** A `[[target#anchor|label]]` (or `![[…]]` embed) found by {@link scanLinks}. */
export interface WikilinkToken extends TokenBase, WikilinkParts {
  kind: 'wikilink';
  embed: boolean;
  /** Where `target` sits in the body (an empty span for `[[#anchor]]`). */
  targetStart: number;
  targetEnd: number;
}

/** A link with a destination: inline link or image, reference definition, HTML `<img>`. */
export interface DestinationToken extends TokenBase {
  kind: 'link' | 'image' | 'definition' | 'html-image';
  /** The destination as written, without `<…>`; '' when empty or absent. */
  href: string;
  /** Where `href` sits in the body; rewrites replace only this span. */
  hrefStart: number;
  hrefEnd: number;
  /** Written as `<dest>`, where spaces need no escaping. */
  angle: boolean;
  /** Link text, image alt or definition label as written; an `<img>`'s `alt`, null without one. */
  text: string | null;
}

export type LinkToken = WikilinkToken | DestinationToken;

const WIKILINK_RE = /(!?)\[\[([^[\]\n]+)\]\]/dg;
// Link text may hold one level of brackets and escapes; the destination is `<…>` or a run
// without spaces with balanced single-level parentheses; an optional title follows.
const INLINE_LINK_RE =
  /(!?)\[((?:[^[\]\\]|\\.|\[[^[\]]*\])*)\]\(\s*(?:<([^<>\n]*)>|((?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*))(?:\s+(?:"[^"]*"|'[^']*'|\([^()]*\)))?\s*\)/dg;
const REFERENCE_DEF_RE = /^ {0,3}\[((?:[^[\]\\]|\\.)+)\]:[ \t]*(?:\r?\n[ \t]*)?(?:<([^<>\n]*)>|(\S+))/dgm;
const HTML_IMG_RE = /<img\b[^<>]*>/gi;

type Span = [number, number];

/**
 * Every link of a Markdown body outside code, in order of position. Backslash-escaped
 * syntax is not a link (`\[[x]]`); an escaped `\!` leaves a plain link or wikilink.
 * Footnote definitions (`[^1]: …`) are not reference definitions.
 */
export function scanLinks(body: string): LinkToken[] {
  const masked = maskCode(body);
  const tokens: LinkToken[] = [];
  for (const m of masked.matchAll(WIKILINK_RE)) {
    const token = wikilinkToken(body, m.index, m[0].length, m[1] === '!', m.indices?.[2]);
    if (token) tokens.push(token);
  }
  // Wikilinks win over Markdown links, as in the renderer: overwriting them with `]` keeps
  // `[[a]](b.md)` from reading as a link labelled `[a]`, and `[see [[a]]](b.md)` from
  // reading as a link at all.
  const text = masked.replace(WIKILINK_RE, (s) => ']'.repeat(s.length));
  for (const m of text.matchAll(INLINE_LINK_RE)) {
    const image = m[1] === '!';
    const span = m.indices?.[3] ?? m.indices?.[4];
    const token = span && destinationToken(body, m.index, m[0].length, image ? 'image' : 'link', span);
    if (token) tokens.push({ ...token, text: slice(body, m.indices?.[2]), angle: m[3] !== undefined });
    // A linked image (`[![Cover](cover.png)](https://…)`, a badge or a video's thumbnail)
    // sits in the link's text, which the match above consumed: read the text once more.
    const label = m.indices?.[2];
    if (!image && label && m[2]?.includes('](')) tokens.push(...nestedImages(body, text, label));
  }
  for (const m of text.matchAll(REFERENCE_DEF_RE)) {
    const span = m.indices?.[2] ?? m.indices?.[3];
    if (m[1]?.startsWith('^') || !span) continue;
    const token = destinationToken(body, m.index, m[0].length, 'definition', span);
    if (token) tokens.push({ ...token, text: slice(body, m.indices?.[1]), angle: m[2] !== undefined });
  }
  for (const m of text.matchAll(HTML_IMG_RE)) tokens.push(htmlImageToken(body, m.index, m[0].length));
  return tokens.sort((a, b) => a.index - b.index);
}

const slice = (body: string, span: Span | undefined): string => (span ? body.slice(...span) : '');

/** The images written in a link's text `label` (offsets into `body`, as every token's). */
function nestedImages(body: string, text: string, label: Span): DestinationToken[] {
  const [from, to] = label;
  const found: DestinationToken[] = [];
  for (const m of text.slice(from, to).matchAll(INLINE_LINK_RE)) {
    const span = m.indices?.[3] ?? m.indices?.[4];
    if (m[1] !== '!' || !span) continue;
    const shifted: Span = [span[0] + from, span[1] + from];
    const token = destinationToken(body, m.index + from, m[0].length, 'image', shifted);
    const alt = m.indices?.[2];
    if (token)
      found.push({
        ...token,
        text: alt ? body.slice(alt[0] + from, alt[1] + from) : '',
        angle: m[3] !== undefined,
      });
  }
  return found;
}

/**
 * A wikilink from a match on the masked copy; its text is read back from `body` at the
 * same offsets, so code inside it is kept as written.
 */
function wikilinkToken(
  body: string,
  index: number,
  length: number,
  embed: boolean,
  innerSpan: Span | undefined,
): WikilinkToken | null {
  if (!innerSpan) return null;
  if (body[index - 1] === '\\') {
    if (!embed) return null;
    // `\![[x]]`: only the `!` is escaped, so the wikilink stands without it.
    [index, length, embed] = [index + 1, length - 1, false];
  }
  const inner = slice(body, innerSpan);
  const parts = parseWikilink(inner);
  if (!parts) return null;
  // Inside a Markdown table the pipe is escaped: `[[page\|label]]`.
  const target = parts.target.replace(/\\$/, '').trim();
  if (!target && !parts.anchor) return null;
  const targetStart = innerSpan[0] + inner.length - inner.trimStart().length;
  return {
    kind: 'wikilink',
    index,
    raw: body.slice(index, index + length),
    embed,
    ...parts,
    target,
    targetStart,
    targetEnd: targetStart + target.length,
  };
}

function destinationToken(
  body: string,
  index: number,
  length: number,
  kind: DestinationToken['kind'],
  span: Span,
): Omit<DestinationToken, 'text' | 'angle'> | null {
  if (body[index - 1] === '\\') {
    if (kind !== 'image') return null;
    // `\![alt](x)`: only the `!` is escaped, which leaves a plain link.
    [index, length, kind] = [index + 1, length - 1, 'link'];
  }
  const href = body.slice(...span);
  return { kind, index, raw: body.slice(index, index + length), href, hrefStart: span[0], hrefEnd: span[1] };
}

function htmlImageToken(body: string, index: number, length: number): DestinationToken {
  const raw = body.slice(index, index + length);
  const attr = (name: string): { value: string; start: number } | null => {
    const a = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'di').exec(raw);
    const group = a?.[1] !== undefined ? 1 : a?.[2] !== undefined ? 2 : 3;
    return a ? { value: a[group] ?? '', start: index + (a.indices?.[group]?.[0] ?? 0) } : null;
  };
  const src = attr('src');
  const hrefStart = src?.start ?? index;
  const href = src?.value ?? '';
  return {
    kind: 'html-image',
    index,
    raw,
    href,
    hrefStart,
    hrefEnd: hrefStart + href.length,
    angle: false,
    text: attr('alt')?.value ?? null,
  };
}
