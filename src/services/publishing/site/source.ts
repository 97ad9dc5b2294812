/**
 * What a published site is served from: the workspace's live published pages or a
 * frozen version. A source knows its pages (in reading order), how to read a body and
 * which uploads its pages reference, so the site, the export and the feeds never ask
 * where the text lives.
 */
import { createHash } from 'node:crypto';
import { isExternalHref, maskCode, resolveRelativeHref, extractLinks } from '../../../render/links.js';
import { uploadNameOf } from '../../../render/published-markdown.js';
import { WikilinkResolver } from '../../../render/wikilink-resolver.js';
import { buildSiteMap, type SiteMap, type SitePage } from './nav.js';
import { AssetIndex, referencedAssetPaths } from './assets.js';
import { siteMapFromOutline } from './nav-outline.js';
import type { OutlineItem } from './nav-sources/index.js';
import type { ServedUpload } from '../../pages/uploads.js';
import { shadowedPagePaths } from '../../../domain/page-extensions.js';

export { uploadNameOf };

/** Reads what a source's index points at. */
export interface SourceLoader {
  /** The Markdown body of a page, or null when its file has gone. */
  readBody(page: SitePage): Promise<string | null>;
  /** An upload's bytes for serving (no reference check), or null when absent. */
  openUpload(name: string): Promise<ServedUpload | null>;
  /** Every non-page file of the tree (see `AssetIndex`); none when absent. */
  listFiles?(): Promise<string[]>;
  /** A repository file's bytes for serving (no reference check), or null when absent or refused. */
  openAsset?(path: string): Promise<ServedUpload | null>;
}

const HTML_ATTR_RE = /\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;

/** Uploads a page body links to or embeds (Markdown links, images, raw HTML attributes); code is ignored. */
export function referencedUploads(body: string, pagePath: string, workspaceSlug: string): string[] {
  const targets = extractLinks(body, pagePath).map((l) => l.targetPath);
  for (const m of maskCode(body).matchAll(HTML_ATTR_RE)) {
    const value = m[1] ?? m[2] ?? m[3] ?? '';
    if (value && !isExternalHref(value)) targets.push(resolveRelativeHref(pagePath, value));
  }
  const names = new Set<string>();
  for (const target of targets) {
    const name = target ? uploadNameOf(target, workspaceSlug) : null;
    if (name) names.add(name);
  }
  return [...names];
}

/** The published pages of a live site or a version, with their structure and content. */
export class SiteSource {
  readonly byPath: Map<string, SitePage>;
  readonly map: SiteMap;
  /** Changes whenever the published paths or titles do: wikilinks are resolved against them. */
  readonly linkKey: string;
  readonly wikilinks: WikilinkResolver;
  private uploadNames: Promise<Set<string>> | undefined;
  private assetIndex: Promise<AssetIndex> | undefined;
  private assetPaths: Promise<Set<string>> | undefined;
  /** The asset index once {@link assets} has loaded it (rendering reads it synchronously). */
  loadedAssets: AssetIndex | null = null;

  /**
   * @param key `live` or `v:<slug>`
   * @param version the version's slug, null for the live pages
   * @param pages the published pages, any order
   * @param favicon an upload served whether or not a page references it: the site's icon
   * @param outline a docs tool's navigation the structure follows; null for the folders
   */
  constructor(
    readonly key: string,
    readonly version: string | null,
    readonly workspaceSlug: string,
    pages: readonly SitePage[],
    rootTitle: string,
    private readonly loader: SourceLoader,
    private readonly favicon: string | null = null,
    outline: readonly OutlineItem[] | null = null,
  ) {
    const shadowed = shadowedPagePaths(pages.map((p) => p.path));
    if (shadowed.size > 0) pages = pages.filter((p) => !shadowed.has(p.path));
    this.byPath = new Map(pages.map((p) => [p.path, p]));
    this.map = outline ? siteMapFromOutline(pages, rootTitle, outline) : buildSiteMap(pages, rootTitle);
    this.wikilinks = new WikilinkResolver(pages);
    this.linkKey = createHash('sha256')
      .update(
        [...this.byPath.values()]
          .map((p) => `${p.path}\u0000${p.title}`)
          .sort()
          .join('\n'),
      )
      .digest('base64url')
      .slice(0, 16);
  }

  /** Pages in reading order. */
  get pages(): SitePage[] {
    return this.map.order;
  }

  /** A page's body ('' when its file disappeared since the index was read). */
  async body(page: SitePage): Promise<string> {
    return (await this.loader.readBody(page)) ?? '';
  }

  /** Every page with its body, in reading order. */
  async bodies(): Promise<Array<{ page: SitePage; body: string }>> {
    return Promise.all(this.pages.map(async (page) => ({ page, body: await this.body(page) })));
  }

  /** Names of the uploads the pages reference; computed once per source. */
  referencedUploads(): Promise<Set<string>> {
    this.uploadNames ??= this.bodies().then(
      (all) =>
        new Set(all.flatMap(({ page, body }) => referencedUploads(body, page.path, this.workspaceSlug))),
    );
    // A failed read must not be remembered: the next request tries again.
    this.uploadNames.catch(() => (this.uploadNames = undefined));
    return this.uploadNames;
  }

  /** The repository's non-page files, indexed once per source (one tree revision). */
  assets(): Promise<AssetIndex> {
    this.assetIndex ??= (this.loader.listFiles?.() ?? Promise.resolve([])).then((paths) => {
      this.loadedAssets = new AssetIndex(paths);
      return this.loadedAssets;
    });
    this.assetIndex.catch(() => (this.assetIndex = undefined));
    return this.assetIndex;
  }

  /** Paths of the repository files the published pages reference; computed once per source. */
  referencedAssets(): Promise<Set<string>> {
    this.assetPaths ??= Promise.all([this.assets(), this.bodies()]).then(
      ([index, all]) =>
        new Set(all.flatMap(({ page, body }) => referencedAssetPaths(body, page.path, index))),
    );
    this.assetPaths.catch(() => (this.assetPaths = undefined));
    return this.assetPaths;
  }

  /** A repository file referenced by a published page of this source; null for any other. */
  async openAsset(path: string): Promise<ServedUpload | null> {
    if (!this.loader.openAsset || !(await this.referencedAssets()).has(path)) return null;
    return this.loader.openAsset(path);
  }

  /** An upload referenced by a published page of this source, or its icon; null for any other. */
  async openUpload(name: string): Promise<ServedUpload | null> {
    if (name !== this.favicon && !(await this.referencedUploads()).has(name)) return null;
    return this.loader.openUpload(name);
  }
}
