/**
 * The files of a repository that pages reference besides other pages: images and
 * attachments anywhere in the tree (MkDocs `docs/img/`, Docusaurus `static/`, Obsidian
 * `Attachments/`), not only `uploads/`. The index is built once per site source (one
 * tree revision) from one walk, so a request never walks the tree.
 *
 * Obsidian finds an embed's file by name anywhere in the vault; with several files of
 * that name it takes the one closest to the note (sharing the most folders with it), then
 * the shortest path.
 */
import { openConfinedFile } from '../../../content/upload-files.js';
import type { WorkspaceFiles } from '../../../content/workspace-files.js';
import { scanLinks } from '../../../domain/link-syntax.js';
import { isFileEmbed } from '../../../render/dialects/index.js';
import {
  isExternalHref,
  maskCode,
  normalisePath,
  resolveRelativeHref,
  splitHref,
} from '../../../render/links.js';
import { describeUpload, MAX_UPLOAD_BYTES, type ServedUpload } from '../../pages/uploads.js';
import { isPagePath } from '../../../domain/page-extensions.js';

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};
const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const key = (name: string): string => name.normalize('NFC').toLowerCase();

/** True for a path the site may serve as an asset: no hidden segment (`.git`, `.folio`), no page. */
export function isServableAssetPath(path: string): boolean {
  const normal = normalisePath(path);
  return (
    normal === path &&
    path !== '' &&
    !path.split('/').some((segment) => segment.startsWith('.')) &&
    !isPagePath(path)
  );
}

/** The non-page files of one tree revision, by path and by file name. */
export class AssetIndex {
  readonly paths: Set<string>;
  private readonly byName = new Map<string, string[]>();

  constructor(paths: Iterable<string>) {
    this.paths = new Set([...paths].filter(isServableAssetPath));
    for (const path of this.paths) {
      const name = key(baseName(path));
      const list = this.byName.get(name);
      if (list) list.push(path);
      else this.byName.set(name, [path]);
    }
  }

  /**
   * The file an Obsidian embed or bare link names, seen from `pagePath`: a path from the
   * vault root when it has a folder, else the file of that name closest to the page.
   */
  findByName(name: string, pagePath: string): string | null {
    const wanted = normalisePath(name.replace(/^\.\//, ''));
    if (!wanted) return null;
    if (this.paths.has(wanted)) return wanted;
    const candidates = this.byName.get(key(baseName(wanted)));
    if (!candidates?.length) return null;
    const matching = wanted.includes('/')
      ? candidates.filter((c) => key(c).endsWith(`/${key(wanted)}`))
      : candidates;
    if (matching.length <= 1) return matching[0] ?? null;
    const folders = pagePath.split('/').slice(0, -1);
    const shared = (path: string): number => {
      const parts = path.split('/').slice(0, -1);
      let n = 0;
      while (n < parts.length && n < folders.length && parts[n] === folders[n]) n++;
      return n;
    };
    return [...matching].sort(
      (a, b) =>
        shared(b) - shared(a) ||
        a.split('/').length - b.split('/').length ||
        a.length - b.length ||
        (a < b ? -1 : 1),
    )[0]!;
  }
}

/**
 * Opens an asset for serving with the rules uploads have: confined to the tree (no `..`,
 * no hidden segment, no symlink at the end or on the way out), a regular file of at most
 * the upload size limit, its type decided from its bytes. Null when any rule fails.
 */
export async function openAsset(files: WorkspaceFiles, path: string): Promise<ServedUpload | null> {
  if (!isServableAssetPath(path)) return null;
  const opened = await openConfinedFile(files, path, MAX_UPLOAD_BYTES);
  if (!opened) return null;
  return {
    stream: opened.handle.createReadStream({ start: 0, autoClose: true }),
    size: opened.size,
    ...describeUpload(opened.head),
    filename: baseName(path),
  };
}

/**
 * The asset a relative href written on `pagePath` points at, or null: the path relative
 * to the page; from the root for `/x` (also under `static/`, where Docusaurus keeps what
 * it serves at `/`); and, for a bare file name, the file of that name closest to the page
 * (Obsidian's "shortest path" links).
 */
export function assetForHref(index: AssetIndex, pagePath: string, href: string): string | null {
  if (!href || isExternalHref(href) || href.startsWith('#')) return null;
  const resolved = resolveRelativeHref(pagePath, href);
  if (!resolved || isPagePath(resolved)) return null;
  if (index.paths.has(resolved)) return resolved;
  const path = safeDecode(splitHref(href).path.split('?')[0] ?? '');
  if (path.startsWith('/')) {
    const fromStatic = normalisePath(`static${path}`);
    if (fromStatic && index.paths.has(fromStatic)) return fromStatic;
  }
  return path.includes('/') && !path.startsWith('/')
    ? null
    : index.findByName(path.replace(/^\//, ''), pagePath);
}

const HTML_ATTR_RE = /\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;

/** The assets a page body references: Markdown links and images, HTML attributes and `![[file]]` embeds. */
export function referencedAssetPaths(body: string, pagePath: string, index: AssetIndex): string[] {
  const found = new Set<string>();
  for (const token of scanLinks(body)) {
    let asset: string | null = null;
    if (token.kind === 'wikilink') {
      if (token.embed && token.target && isFileEmbed(token.target))
        asset = index.findByName(token.target, pagePath);
    } else asset = assetForHref(index, pagePath, token.href);
    if (asset) found.add(asset);
  }
  for (const m of maskCode(body).matchAll(HTML_ATTR_RE)) {
    const asset = assetForHref(index, pagePath, m[1] ?? m[2] ?? m[3] ?? '');
    if (asset) found.add(asset);
  }
  return [...found];
}
