import type * as Yazl from 'yazl';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import { parseInput } from '../../domain/validate.js';
import { notFound } from '../../errors.js';
import { relativeHref } from '../../render/links.js';
import { themeCss, themeFavicon, type ThemeName } from '../../render/themes.js';
import { katexExportFiles } from '../../render/dialect-assets.js';
import { PALETTE_FILES, paletteAsset } from '../../render/palette.js';
import { exportSearchScript } from './site/export-search.js';
import type { AccessService } from '../access.js';
import { folderOfPath, type Linker, type SiteFolder } from './site/nav.js';
import type { SiteContext } from './site/context.js';
import type { SiteSource } from './site/source.js';
import { encodePath, type Chrome, type SiteRenderer } from './site/render.js';
import { LIVE_VERSION_SLUG } from './versions.js';
import { stripPageExtension } from '../../domain/page-extensions.js';
import { importPackage } from '../../lib/import-package.js';

/** `?version=` of an export: a version's slug, or `latest` for the live pages. */
export const exportInput = z.object({ version: z.string().trim().min(1).max(200).optional() });

/** Where the theme's stylesheet sits inside the ZIP. */
export const EXPORT_CSS = '_assets/theme.css';
const EXPORT_ASSETS = '_assets';
/** The search palette's local index, in EXPORT_ASSETS. */
const EXPORT_SEARCH_INDEX = 'search-index.js';

/**
 * Where the site's icon sits inside the ZIP, as on the live site: the workspace's favicon
 * upload (`favicon.svg`, `.png` or `.ico`) when it has one, else the theme's own icon.
 */
export const exportIconOf = (favicon: string | null, theme: ThemeName): string =>
  favicon ? `_assets/${favicon}` : `_assets/favicon-${theme}.svg`;

/** The ZIP file of a page: its path with `.html` (`guides/index.md` → `guides/index.html`, `a.mdx` → `a.html`). */
export const exportFileOf = (pagePath: string): string => `${stripPageExtension(pagePath)}.html`;
const folderFileOf = (folder: string): string => (folder ? `${folder}/index.html` : 'index.html');

/**
 * Hrefs from one file of the export to the others: relative, and to files rather than
 * folders, because a page opened from disk has no server to find `index.html` for it.
 * A link to a page that is not published goes nowhere (`#`) instead of to a missing file.
 */
export function exportLinker(fromFile: string): Linker {
  const to = (file: string) => encodePath(relativeHref(fromFile, file));
  return {
    // Relative hrefs depend only on the folder the linking file is in.
    key: `export:${folderOfPath(fromFile)}`,
    page: (path) => to(exportFileOf(path)),
    folder: (path) => to(folderFileOf(path)),
    upload: (name) => to(`uploads/${name}`),
    asset: (path) => to(path),
    deadLink: () => '#',
  };
}

/** One file of the export: its bytes, or an upload of `source` copied in while the ZIP is written. */
type ExportFile =
  | { name: string; data: Buffer; mtime?: string }
  | { name: string; upload: string; size: number; source: SiteSource }
  | { name: string; asset: string; size: number; source: SiteSource };

/** Where KaTeX's stylesheet (and its `fonts/` beside it) sits inside the ZIP. */
export const EXPORT_KATEX_DIR = '_assets/katex';

/** What an export holds, before any of it is compressed. */
export interface ExportSummary {
  workspace_id: string;
  /** The ZIP's file name, as Content-Disposition gives it. */
  filename: string;
  /** The published pages in it, one HTML file each. */
  page_count: number;
  /** Every file in it (pages, folder indexes, the theme's CSS, uploads) uncompressed; the ZIP is smaller. */
  size_bytes: number;
}

/**
 * The static export: every published page as a standalone HTML file at its
 * path, an `index.html` for every folder (a generated list where there is no index page),
 * the theme's CSS, the site's icon and the uploads the pages reference. The ZIP is streamed while it is
 * built (yazl), never written to a temporary file.
 */
export function createExport(deps: { access: AccessService; context: SiteContext; renderer: SiteRenderer }) {
  /**
   * No versions, consent form or search results page: the export is static files with
   * nothing to call. Its search is the palette over a local index. The stylesheet and the
   * icon are linked relatively, so the pages work opened from disk.
   */
  const chrome = (file: string, icon: string, base: Omit<Chrome, 'basePath'>): Chrome => {
    const asset = (name: string) => encodePath(relativeHref(file, `${EXPORT_ASSETS}/${name}`));
    return {
      ...base,
      cssHref: encodePath(relativeHref(file, EXPORT_CSS)),
      iconHref: encodePath(relativeHref(file, icon)),
      // Math is styled offline too; diagrams stay as their source (no script in the export).
      dialectAssets: { katexCss: encodePath(relativeHref(file, `${EXPORT_KATEX_DIR}/katex.min.css`)) },
      basePath: encodePath(relativeHref(file, 'index.html')),
      palette: {
        script: asset('palette.js'),
        css: asset('palette.css'),
        source: {
          index: asset(EXPORT_SEARCH_INDEX),
          root: '../'.repeat(file.split('/').length - 1),
        },
      },
    };
  };

  /**
   * Every file of the export, rendered, and where uploads come from. Everything is read
   * here, before the first byte is sent, so a failure is still an error response.
   */
  async function collect(actor: Actor, workspaceId: string, input: unknown) {
    const { version: wanted } = parseInput(exportInput, input ?? {});
    const { workspace } = await deps.access.require(actor, workspaceId, CAN.read);
    const state = await deps.context.load(workspace.slug);
    if (!state) throw notFound('Workspace');
    const version =
      wanted === undefined
        ? state.defaultVersion
        : wanted === LIVE_VERSION_SLUG
          ? null
          : (state.versions.find((v) => v.slug === wanted) ?? null);
    if (wanted !== undefined && wanted !== LIVE_VERSION_SLUG && !version) throw notFound('Version');
    const source = version ? await deps.context.version(state, version) : state.live;
    const { settings } = state;
    const base = {
      siteTitle: settings.site_title,
      ...(settings.site_description ? { siteDescription: settings.site_description } : {}),
      theme: settings.theme,
    };

    // The live site's icon serves every version too; a favicon gone since the check is the theme's.
    const favicon = state.favicon ? await state.live.openUpload(state.favicon) : null;
    favicon?.stream.destroy();
    const icon = exportIconOf(favicon ? state.favicon : null, settings.theme);

    const files: ExportFile[] = [];
    const add = (name: string, html: string, mtime?: string) =>
      files.push({ name, data: Buffer.from(html, 'utf8'), ...(mtime ? { mtime } : {}) });
    const bodies = await source.bodies();
    for (const { page, body } of bodies) {
      const file = exportFileOf(page.path);
      add(
        file,
        await deps.renderer.pageDocument(source, page, body, exportLinker(file), chrome(file, icon, base)),
        page.updatedAt,
      );
    }
    const generated = (folder: SiteFolder) => {
      if (!folder.index) {
        const file = folderFileOf(folder.path);
        add(file, deps.renderer.folderDocument(source, folder, exportLinker(file), chrome(file, icon, base)));
      }
      for (const entry of folder.entries) if (entry.kind === 'folder') generated(entry.folder);
    };
    generated(source.map.root);
    add(EXPORT_CSS, themeCss(settings.theme));
    if (favicon && state.favicon) {
      files.push({ name: icon, upload: state.favicon, size: favicon.size, source: state.live });
    } else add(icon, themeFavicon(settings.theme));
    add(
      `${EXPORT_ASSETS}/${EXPORT_SEARCH_INDEX}`,
      await exportSearchScript(bodies, (page) => encodePath(exportFileOf(page.path))),
    );
    for (const name of PALETTE_FILES) add(`${EXPORT_ASSETS}/${name}`, paletteAsset(name).body);
    for (const name of [...(await source.referencedUploads())].sort()) {
      const upload = await source.openUpload(name);
      if (!upload) continue;
      upload.stream.destroy();
      files.push({ name: `uploads/${name}`, upload: name, size: upload.size, source });
    }
    // Repository files the pages reference sit at their own paths, so relative links hold.
    const taken = new Set(files.map((f) => f.name));
    for (const path of [...(await source.referencedAssets())].sort()) {
      if (taken.has(path)) continue;
      const asset = await source.openAsset(path);
      if (!asset) continue;
      asset.stream.destroy();
      files.push({ name: path, asset: path, size: asset.size, source });
    }
    if (files.some((f) => 'data' in f && f.name.endsWith('.html') && f.data.includes('class="katex')))
      for (const f of katexExportFiles()) files.push({ name: `${EXPORT_KATEX_DIR}/${f.name}`, data: f.data });

    const name = version ? `${workspace.slug}-${version.slug}` : workspace.slug;
    return { workspace, files, pageCount: bodies.length, filename: `${name}-site.zip` };
  }

  return {
    /**
     * Readers of the workspace: the ZIP as a stream, with a file name for Content-Disposition.
     * It holds what the site's root serves (the default version when one is set, else the
     * live pages) unless `version` names one (`latest` for the live pages); a version's
     * slug is part of the file name. An unknown version is NOT_FOUND.
     */
    async exportSite(
      actor: Actor,
      workspaceId: string,
      input: unknown = {},
    ): Promise<{ filename: string; stream: Readable }> {
      const { files, filename } = await collect(actor, workspaceId, input);
      // yazl is loaded on the first export, not at start.
      const { ZipFile } = await importPackage<typeof Yazl>('yazl');
      const zip = new ZipFile();
      for (const file of files) {
        if ('data' in file) {
          zip.addBuffer(file.data, file.name, file.mtime ? { mtime: new Date(file.mtime) } : {});
          continue;
        }
        zip.addReadStreamLazy(file.name, (done) => {
          const open =
            'upload' in file ? file.source.openUpload(file.upload) : file.source.openAsset(file.asset);
          const label = 'upload' in file ? `upload ${file.upload}` : `file ${file.asset}`;
          open.then(
            (upload) =>
              upload
                ? done(null, upload.stream)
                : done(new Error(`${label} disappeared`), undefined as never),
            (err: unknown) => done(err, undefined as never),
          );
        });
      }
      zip.end();
      return { filename, stream: zip.outputStream as Readable };
    },

    /**
     * What `exportSite` with the same arguments would put in the ZIP, counted without
     * building it: the same pages and files, and their size before compression.
     */
    async summary(actor: Actor, workspaceId: string, input: unknown = {}): Promise<ExportSummary> {
      const { workspace, files, pageCount, filename } = await collect(actor, workspaceId, input);
      const sizes = files.map((file) => ('data' in file ? file.data.length : file.size));
      return {
        workspace_id: workspace.id,
        filename,
        page_count: pageCount,
        size_bytes: sizes.reduce((total, size) => total + size, 0),
      };
    },
  };
}
