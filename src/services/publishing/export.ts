import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import { parseInput } from '../../domain/validate.js';
import { notFound } from '../../errors.js';
import { relativeHref } from '../../render/links.js';
import { PALETTE_FILES, paletteAsset } from '../../render/palette.js';
import { themeCss } from '../../render/themes.js';
import { exportSearchScript } from './site/export-search.js';
import type { AccessService } from '../access.js';
import { folderOfPath, type Linker, type SiteFolder } from './site/nav.js';
import type { SiteContext } from './site/context.js';
import { encodePath, type Chrome, type SiteRenderer } from './site/render.js';
import { LIVE_VERSION_SLUG } from './versions.js';

/** `?version=` of an export: a version's slug, or `latest` for the live pages. */
export const exportInput = z.object({ version: z.string().trim().min(1).max(200).optional() });

/** Where the theme's stylesheet sits inside the ZIP. */
export const EXPORT_CSS = '_assets/theme.css';
const EXPORT_ASSETS = '_assets';
/** The search palette's local index, in EXPORT_ASSETS. */
const EXPORT_SEARCH_INDEX = 'search-index.js';

/** The ZIP file of a page: its path with `.html` (`guides/index.md` → `guides/index.html`). */
export const exportFileOf = (pagePath: string): string => pagePath.replace(/\.md$/i, '.html');
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
    deadLink: () => '#',
  };
}

/** One file of the export: its bytes, or an upload copied in while the ZIP is written. */
type ExportFile =
  { name: string; data: Buffer; mtime?: string } | { name: string; upload: string; size: number };

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
 * The static export (SPEC.md 4.5): every published page as a standalone HTML file at its
 * path, an `index.html` for every folder (a generated list where there is no index page),
 * the theme's CSS and the uploads the pages reference. The ZIP is streamed while it is
 * built (yazl), never written to a temporary file.
 */
export function createExport(deps: { access: AccessService; context: SiteContext; renderer: SiteRenderer }) {
  /**
   * No versions, consent form or search results page: the export is static files with
   * nothing to call. Its search is the palette over a local index.
   */
  const chrome = (file: string, base: Omit<Chrome, 'basePath'>): Chrome => {
    const asset = (name: string) => encodePath(relativeHref(file, `${EXPORT_ASSETS}/${name}`));
    return {
      ...base,
      cssHref: encodePath(relativeHref(file, EXPORT_CSS)),
      basePath: encodePath(relativeHref(file, 'index.html')),
      palette: {
        script: asset('palette.js'),
        css: asset('palette.css'),
        source: {
          index: asset(EXPORT_SEARCH_INDEX),
          minisearch: asset('minisearch.js'),
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

    const files: ExportFile[] = [];
    const add = (name: string, html: string, mtime?: string) =>
      files.push({ name, data: Buffer.from(html, 'utf8'), ...(mtime ? { mtime } : {}) });
    const bodies = await source.bodies();
    for (const { page, body } of bodies) {
      const file = exportFileOf(page.path);
      add(
        file,
        await deps.renderer.pageDocument(source, page, body, exportLinker(file), chrome(file, base)),
        page.updatedAt,
      );
    }
    const generated = (folder: SiteFolder) => {
      if (!folder.index) {
        const file = folderFileOf(folder.path);
        add(file, deps.renderer.folderDocument(source, folder, exportLinker(file), chrome(file, base)));
      }
      for (const entry of folder.entries) if (entry.kind === 'folder') generated(entry.folder);
    };
    generated(source.map.root);
    add(EXPORT_CSS, themeCss(settings.theme));
    add(
      `${EXPORT_ASSETS}/${EXPORT_SEARCH_INDEX}`,
      await exportSearchScript(bodies, (page) => encodePath(exportFileOf(page.path))),
    );
    for (const name of PALETTE_FILES) add(`${EXPORT_ASSETS}/${name}`, paletteAsset(name).body);
    for (const name of [...(await source.referencedUploads())].sort()) {
      const upload = await source.openUpload(name);
      if (!upload) continue;
      upload.stream.destroy();
      files.push({ name: `uploads/${name}`, upload: name, size: upload.size });
    }

    const name = version ? `${workspace.slug}-${version.slug}` : workspace.slug;
    return { workspace, source, files, pageCount: bodies.length, filename: `${name}-site.zip` };
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
      const { source, files, filename } = await collect(actor, workspaceId, input);
      const zip = new ZipFile();
      for (const file of files) {
        if ('data' in file) {
          zip.addBuffer(file.data, file.name, file.mtime ? { mtime: new Date(file.mtime) } : {});
          continue;
        }
        zip.addReadStreamLazy(file.name, (done) => {
          source.openUpload(file.upload).then(
            (upload) =>
              upload
                ? done(null, upload.stream)
                : done(new Error(`upload ${file.upload} disappeared`), undefined as never),
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
