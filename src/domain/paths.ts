import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { invalid } from '../errors.js';
import { DEFAULT_PAGE_EXTENSION, pageExtensionOf, stripPageExtension } from './page-extensions.js';

export * from './page-extensions.js';

/**
 * Names the content API's own routes use right after the workspace (`/content/{ws}/uploads`,
 * `/tree`, `/reorder`, `/move`). Refused as the first segment of a page path only, where a
 * page or folder of that name would be shadowed by the route (and the top-level `uploads/`
 * stays a pure asset folder); deeper, `guides/move.md` collides with nothing.
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['uploads', 'tree', 'reorder', 'move']);

/** Longest file or folder name most filesystems accept, in UTF-8 bytes. */
export const MAX_NAME_BYTES = 255;
/** Longest page path accepted, in UTF-8 bytes (well under PATH_MAX once DATA_DIR is prefixed). */
export const MAX_PATH_BYTES = 1024;

// C0, DEL and C1 controls: invisible in UIs and hostile to shells, logs and git.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
// Windows-reserved characters keep the git tree checkout-able everywhere; `#`, `|`, `[`, `]`
// would break `[[target#heading|label]]` wikilinks and URLs built from the path.
const FORBIDDEN_CHARS = /[:*?"<>|#[\]]/;

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * Turns a client-supplied page path (with or without `.md`, optionally with one leading `/`)
 * into the canonical workspace-relative path: NFC, forward slashes, ending in lowercase `.md`
 * (or `.mdx` when the path given ends in `.mdx`: an MDX page keeps its extension).
 * Throws `invalid('path', …)` for anything that could escape the workspace, hide a file,
 * collide with a route or fail to check out on another OS.
 */
export function normalizePagePath(input: string): string {
  if (typeof input !== 'string') throw invalid('path', 'Path must be a string');
  // NFC so that a name typed on macOS (NFD) and on Linux maps to one file.
  let p = input.trim().normalize('NFC');
  if (p === '') throw invalid('path', 'Path must not be empty');
  if (CONTROL_CHARS.test(p)) throw invalid('path', 'Path must not contain control characters');
  if (p.includes('\\')) throw invalid('path', 'Path must use forward slashes');
  if (p.startsWith('//')) throw invalid('path', 'Path must be relative to the workspace');
  if (/^[a-zA-Z]:/.test(p)) throw invalid('path', 'Path must not start with a drive letter');
  if (p.startsWith('/')) p = p.slice(1);
  if (p === '') throw invalid('path', 'Path must not be empty');

  const ext = pageExtensionOf(p) || DEFAULT_PAGE_EXTENSION;
  p = stripPageExtension(p) + ext;

  const segments = p.split('/');
  for (const [i, segment] of segments.entries()) checkSegment(segment, i === 0, i === segments.length - 1);
  if (byteLength(p) > MAX_PATH_BYTES) throw invalid('path', `Path must be at most ${MAX_PATH_BYTES} bytes`);
  return p;
}

function checkSegment(segment: string, isFirst: boolean, isLast: boolean): void {
  if (segment === '') throw invalid('path', 'Path must not contain empty segments');
  if (segment === '..' || segment === '.')
    throw invalid('path', 'Path must not contain "." or ".." segments');
  if (segment.startsWith('.')) throw invalid('path', 'Path segments must not start with "."');
  if (segment !== segment.trim() || segment.endsWith('.')) {
    throw invalid('path', 'Path segments must not start or end with spaces or end with "."');
  }
  if (FORBIDDEN_CHARS.test(segment))
    throw invalid('path', 'Path must not contain any of : * ? " < > | # [ ]');
  const stem = isLast ? stripPageExtension(segment) : segment;
  if (stem === '') throw invalid('path', 'Page name must not be empty');
  if (isFirst && RESERVED_NAMES.has(stem.toLowerCase())) {
    throw invalid('path', `"${stem}" is reserved at the top level of a workspace`);
  }
  if (byteLength(segment) > MAX_NAME_BYTES) {
    throw invalid('path', `Each path segment must be at most ${MAX_NAME_BYTES} bytes`);
  }
}

/**
 * The URL path of a page on the published site: the canonical path without `.md`/`.mdx`, and a
 * folder's `index.md` served as the folder itself (`guides/index.md` -> `guides`,
 * root `index.md` -> `''`). No leading or trailing slash.
 */
export function pageUrlPath(pagePath: string): string {
  const withoutExt = stripPageExtension(pagePath);
  if (withoutExt === 'index') return '';
  return withoutExt.endsWith('/index') ? withoutExt.slice(0, -'/index'.length) : withoutExt;
}

/** The folder holding a workspace-relative path (`''` for the root), as used by the tree. */
export function parentFolder(relPath: string): string {
  const i = relPath.lastIndexOf('/');
  return i < 0 ? '' : relPath.slice(0, i);
}

/**
 * Lexical containment: whether `absPath` is `root` or lies below it once both are resolved.
 * It does not touch the disk, so pass real paths when symlinks matter (`resolveInside` does).
 */
export function isInside(root: string, absPath: string): boolean {
  const rel = path.relative(path.resolve(root), path.resolve(absPath));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * Resolves `relPath` under `root` and returns the absolute (non-realpath) result, or throws
 * `invalid('path', …)` when it escapes — lexically, or through a symlink anywhere along the
 * way (checked on the real path of the nearest existing ancestor, since the target itself
 * may not exist yet). Check-then-use is inherently racy; it guards against content in the
 * tree (e.g. a symlink committed to git), not against a concurrent local attacker.
 */
export async function resolveInside(root: string, relPath: string): Promise<string> {
  if (typeof relPath !== 'string' || relPath.includes('\0')) throw invalid('path', 'Invalid path');
  if (path.isAbsolute(relPath)) throw invalid('path', 'Path must be relative to the workspace');
  const absRoot = path.resolve(root);
  const abs = path.resolve(absRoot, relPath);
  if (!isInside(absRoot, abs)) throw invalid('path', 'Path escapes the workspace');
  const known = realRoots.get(absRoot);
  const [realRoot, realTarget] = await Promise.all([
    known ?? realpathOfNearest(absRoot),
    realpathOfNearest(abs),
  ]);
  if (isInside(realRoot, realTarget)) {
    if (!known) rememberRealRoot(absRoot, realRoot);
    return abs;
  }
  // The root itself may have moved since it was remembered: asked again before refusing.
  const fresh = known ? await realpathOfNearest(absRoot) : realRoot;
  if (!isInside(fresh, realTarget)) throw invalid('path', 'Path escapes the workspace');
  rememberRealRoot(absRoot, fresh);
  return abs;
}

/**
 * The real paths of workspace roots, which Folio creates and nothing in a tree can change:
 * every page read and write resolves its path, and the root's half of that was one of the
 * most frequent system calls of a busy server. The target's real path is still asked each time.
 */
const realRoots = new Map<string, string>();
const MAX_REAL_ROOTS = 1024;

function rememberRealRoot(absRoot: string, realRoot: string): void {
  if (realRoots.size >= MAX_REAL_ROOTS) realRoots.clear();
  realRoots.set(absRoot, realRoot);
}

async function realpathOfNearest(abs: string): Promise<string> {
  const tail: string[] = [];
  let current = abs;
  for (;;) {
    try {
      return path.join(await realpath(current), ...tail.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const parent = path.dirname(current);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === current) throw err;
      tail.push(path.basename(current));
      current = parent;
    }
  }
}

const MAX_UPLOAD_STEM = 100;

/**
 * Makes a client's upload file name safe to store under `uploads/`: directory parts dropped,
 * accents folded to ASCII, lowercase letters, digits and single dashes, lowercase extension
 * kept (`Mon Café (1).PNG` -> `mon-cafe-1.png`). Never empty (`file` as a fallback stem).
 * The result has no dots besides the extension's, so `suffixUploadName` can make it unique.
 */
export function normalizeUploadName(name: string): string {
  const base = String(name).split(/[/\\]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const rawExt = dot > 0 ? base.slice(dot + 1) : '';
  const ext = /^[a-z0-9]{1,10}$/i.test(rawExt) ? rawExt.toLowerCase() : '';
  const rawStem = ext ? base.slice(0, dot) : base;
  const stem = toAsciiDashes(rawStem).slice(0, MAX_UPLOAD_STEM).replace(/-+$/, '') || 'file';
  return ext ? `${stem}.${ext}` : stem;
}

/** Inserts `-suffix` before the extension of a normalized upload name (`a.png`, `2` -> `a-2.png`). */
export function suffixUploadName(name: string, suffix: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}-${suffix}${name.slice(dot)}` : `${name}-${suffix}`;
}

/** Lowercase ASCII letters and digits joined by single dashes; shared with slugify. */
export function toAsciiDashes(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
