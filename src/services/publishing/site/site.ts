/**
 * The published site: `/p/<workspace>/` plus a
 * page's path without `.md` (or `.mdx`). Only published pages are served; members-only sites answer
 * 404 to anyone who is not a member. Documents are produced with a nonce placeholder and
 * cached with their ETag (site-context.ts keeps the workspace's state), so a request to a
 * public site reads nothing from the database; the HTTP adapter inserts the request's
 * nonce and answers 304 on a matching ETag.
 */
import type { Actor } from '../../../domain/actor.js';
import {
  NONCE_PLACEHOLDER,
  renderNotFoundPage,
  renderSearchPage,
  type VersionLink,
} from '../../../render/layout.js';
import { pageRoute } from '../../../render/links.js';
import { isPagePath, pagePathCandidates, stripPageExtension } from '../../../domain/page-extensions.js';
import { dialectAsset, dialectAssetPaths } from '../../../render/dialect-assets.js';
import { hashedPaletteName, paletteAsset, paletteFileOf } from '../../../render/palette.js';
import { isThemeName, themeCss, themeCssHash, themeFavicon } from '../../../render/themes.js';
import type { SearchIndex } from '../../../search/search-index.js';
import type { Store } from '../../../store/database.js';
import * as pagesTable from '../../../store/repositories/pages.js';
import * as workspacesTable from '../../../store/repositories/workspaces.js';
import type { AnalyticsService, VisitorSignals } from '../analytics.js';
import { hostOf, type CustomDomainsService } from '../custom-domains.js';
import { LruCache } from '../../../lib/lru-cache.js';
import type { Metrics } from '../../../metrics/metrics.js';
import {
  isFeedFile,
  llmsFullTxt,
  llmsTxt,
  robotsTxt,
  rssXml,
  sitemapXml,
  FEED_FILES,
  type FeedSite,
} from './feeds.js';
import { navNodes, type Linker, type SitePage } from './nav.js';
import { encodePath, type Chrome, type SiteRenderer } from './render.js';
import {
  consentForm,
  documentChunks,
  iconHref,
  siteLinker,
  themeHref,
  weakEtag,
  type CacheMode,
  type SiteResponse,
} from './response.js';
import type { SiteContext, SiteState } from './context.js';
import type { SiteSource } from './source.js';
import { searchJsonResponse, type SiteSearch } from './site-search.js';
import type { PageAuthors } from './authors.js';
import type { AccessService } from '../../access.js';
import { fillEditUrl } from '../../workspaces/edit-url.js';
import type { ServedUpload } from '../../pages/uploads.js';
import { readSettings } from '../../workspaces/settings.js';
import { LIVE_VERSION_SLUG } from '../versions.js';
import { VERSION } from '../../../version.js';

/** The published page `bare.md`, else `bare.mdx` (the `.md` wins a clash of names). */
function pageNamed(source: SiteSource, bare: string): SitePage | undefined {
  for (const candidate of pagePathCandidates(bare)) {
    const page = source.byPath.get(candidate);
    if (page) return page;
  }
  return undefined;
}

/** One request to the site, as the adapter parsed it. */
export interface SiteRequest {
  actor: Actor | null;
  workspace: string;
  /** The path after `/p/<workspace>/`, percent-decoded. */
  path: string;
  /** `q` of a search. */
  query?: string;
  /** `version` of search.json: a version's slug, or `latest` for the live pages. */
  version?: string;
  /** The Host header: a verified custom domain serves its site at `/`. */
  host?: string;
  visitor: VisitorSignals;
}

export interface SiteDeps {
  store: Store;
  context: SiteContext;
  renderer: SiteRenderer;
  analytics: AnalyticsService;
  customDomains: CustomDomainsService;
  searchIndex: SearchIndex;
  /** The reader's instant search (search.json). */
  siteSearch: SiteSearch;
  /** Roles, for the editor's "Edit this page" link. */
  access: Pick<AccessService, 'roleIn'>;
  /** Last authors for "Last updated". */
  authors: PageAuthors;
  publicUrl: string;
  /** Counts documents served from the cache and built anew. */
  metrics?: Pick<Metrics, 'site'>;
}

/** Where a site is mounted for this request: its root href and the origin its absolute URLs use. */
interface Mount {
  root: string;
  origin: string;
}

/** A source being served at a base href (the root, `v/<slug>/` or `v/latest/`). */
interface Served {
  state: SiteState;
  mount: Mount;
  source: SiteSource;
  base: string;
  cache: CacheMode;
  linker: Linker;
}

/** A cached document: its chunks (see {@link SiteResponse}), ETag and size. */
interface Document {
  chunks: Buffer[];
  etag: string;
  bytes: number;
}

/** A cached text file (`<page>.md`, llms-full.txt): hashing megabytes for an ETag is done once. */
interface TextDocument {
  text: string;
  etag: string;
}

const SEARCH_LIMIT = 20;
/** Roles that edit pages: they get the editor's link. */
const EDIT_ROLES = new Set(['editor', 'admin', 'superadmin']);
const MAX_QUERY = 200;

/** Builds the published-site service. */
export function createSite(deps: SiteDeps) {
  const { context, renderer } = deps;
  const documents = new LruCache<Document | TextDocument>(2_000, 32 * 1024 * 1024, (d) =>
    'text' in d ? d.text.length * 2 : d.bytes,
  );
  // Keys carry the workspace's fingerprint, so a change makes its documents unreachable.
  // They are dropped at the first document of the new fingerprint rather than left to the
  // LRU bound: under steady writes they were up to 32 MB of memory serving nothing.
  const documentsOf = new Map<string, { fingerprint: string; keys: Set<string> }>();

  function remember(
    workspaceId: string,
    fingerprint: string,
    key: string,
    doc: Document | TextDocument,
  ): void {
    let mine = documentsOf.get(workspaceId);
    if (mine?.fingerprint !== fingerprint) {
      for (const stale of mine?.keys ?? []) documents.delete(stale);
      mine = { fingerprint, keys: new Set() };
      documentsOf.set(workspaceId, mine);
    }
    mine.keys.add(key);
    documents.set(key, doc);
  }

  function chrome(served: Served, returnTo: string | null): Chrome {
    const { state, mount } = served;
    const { settings } = state;
    const liveBase = state.defaultVersion ? `${mount.root}v/${LIVE_VERSION_SLUG}/` : mount.root;
    const versions: VersionLink[] = state.versions.length
      ? [
          {
            slug: LIVE_VERSION_SLUG,
            name: 'Latest',
            href: liveBase,
            current: served.source.version === null,
          },
          ...state.versions.map((v) => ({
            slug: v.slug,
            name: v.name,
            href:
              v.id === state.defaultVersion?.id
                ? mount.root
                : `${mount.root}v/${encodeURIComponent(v.slug)}/`,
            current: served.source.version === v.slug,
          })),
        ]
      : [];
    return {
      siteTitle: settings.site_title,
      ...(settings.site_description ? { siteDescription: settings.site_description } : {}),
      theme: settings.theme,
      nonce: NONCE_PLACEHOLDER,
      cssHref: themeHref(mount.root, settings.theme),
      iconHref: state.favicon
        ? `${liveBase}uploads/${encodeURIComponent(state.favicon)}`
        : iconHref(mount.root, settings.theme),
      basePath: served.base,
      dialectAssets: {
        katexCss: mount.root + dialectAssetPaths().katexCss,
        mermaidScripts: dialectAssetPaths().mermaidScripts.map((p) => mount.root + p),
      },
      searchAction: `${served.base}search`,
      versions,
      palette: {
        script: `${mount.root}_assets/${hashedPaletteName('palette.js')}`,
        css: `${mount.root}_assets/${hashedPaletteName('palette.css')}`,
        source: { endpoint: `${mount.root}search.json`, version: served.source.version ?? LIVE_VERSION_SLUG },
      },
      ...(returnTo !== null ? { footerHtml: consentForm(returnTo) } : {}),
    };
  }

  /** The 404 page; inside a site it keeps the site's header, search and sidebar so a reader can go on. */
  function notFound(served: Served | null, root: string, signInHref?: string): SiteResponse {
    const theme = served?.state.settings.theme ?? 'default';
    const html = renderNotFoundPage({
      ...(served
        ? chrome(served, null)
        : { siteTitle: 'Documentation', theme, nonce: NONCE_PLACEHOLDER, iconHref: iconHref(root, theme) }),
      cssHref: themeHref(root, theme),
      ...(served ? { nav: navNodes(served.source.map, served.linker, { page: '' }) } : {}),
      ...(signInHref ? { signInHref } : {}),
    });
    return { type: 'document', status: 404, chunks: documentChunks(html), etag: null, cache: 'revalidate' };
  }

  /** A cached document (keyed by everything it depends on), or a freshly built one. */
  async function cachedDocument(
    served: Served,
    what: string,
    build: (footer: boolean) => Promise<string> | string,
  ): Promise<Document> {
    const { state, mount, source, base } = served;
    const key = [state.workspace.id, state.fingerprint, mount.root, source.key, base, what].join('\u0000');
    const found = documents.get(key);
    let doc = found && 'chunks' in found ? found : undefined;
    deps.metrics?.site.renderCache.inc({ result: doc ? 'hit' : 'miss' });
    if (!doc) {
      const html = await build(await deps.analytics.available(state.workspace));
      const chunks = documentChunks(html);
      doc = { chunks, etag: weakEtag(html), bytes: chunks.reduce((n, c) => n + c.length, 0) };
      remember(state.workspace.id, state.fingerprint, key, doc);
    }
    return doc;
  }

  /** Whether the reader may edit the live pages in Folio (members with an editing role). */
  async function mayEdit(served: Served, actor: Actor | null): Promise<boolean> {
    if (!actor || served.source.version !== null) return false;
    const role = await deps.access.roleIn(actor, served.state.workspace);
    return role !== null && EDIT_ROLES.has(role);
  }

  async function pageResponse(served: Served, path: string, req: SiteRequest): Promise<SiteResponse> {
    const page = served.source.byPath.get(path);
    if (!page) return notFound(served, served.mount.root);
    const url = served.linker.page(page.path);
    const { state, mount } = served;
    const editor = await mayEdit(served, req.actor);
    // The web app lives on Folio's own host, also when the site is on a custom domain.
    const app = mount.root === '/' ? deps.publicUrl : '';
    const editHref = editor
      ? `${app}/w/${encodeURIComponent(state.workspace.slug)}/${encodePath(page.path)}`
      : state.settings.edit_url
        ? fillEditUrl(state.settings.edit_url, page.path)
        : undefined;
    const updatedBy =
      state.settings.show_last_updated_author && served.source.version === null
        ? await deps.authors.of(state, page.path)
        : null;
    const doc = await cachedDocument(served, `page:${page.path}\u0000${editor}`, async (footer) =>
      renderer.pageDocument(
        served.source,
        page,
        await served.source.body(page),
        served.linker,
        chrome(served, footer ? url : null),
        {
          canonicalUrl: served.mount.origin + url,
          feedHref: `${served.base}rss.xml`,
          ...(updatedBy ? { updatedBy } : {}),
          ...(editHref ? { editHref } : {}),
        },
      ),
    );
    await deps.analytics.recordView(served.state.workspace, page.path, req.visitor);
    // A page with the editor's link is the reader's own: never stored by a shared cache.
    const cache = editor && served.cache === 'public' ? 'private' : served.cache;
    return { type: 'document', status: 200, chunks: doc.chunks, etag: doc.etag, cache };
  }

  async function folderResponse(served: Served, folderPath: string): Promise<SiteResponse> {
    const folder = served.source.map.folders.get(folderPath);
    if (!folder) return notFound(served, served.mount.root);
    const url = served.linker.folder(folderPath);
    const doc = await cachedDocument(served, `folder:${folderPath}`, (footer) =>
      renderer.folderDocument(served.source, folder, served.linker, chrome(served, footer ? url : null), {
        canonicalUrl: served.mount.origin + url,
      }),
    );
    return { type: 'document', status: 200, chunks: doc.chunks, etag: doc.etag, cache: served.cache };
  }

  async function searchResponse(served: Served, req: SiteRequest): Promise<SiteResponse> {
    const query = (req.query ?? '').trim().slice(0, MAX_QUERY);
    const { state } = served;
    const live = state.live;
    const liveLinker = siteLinker(
      state.defaultVersion ? `${served.mount.root}v/${LIVE_VERSION_SLUG}/` : served.mount.root,
    );
    let total = 0;
    let results: Array<{ title: string; href: string; snippet: string; path: string }> = [];
    if (query) {
      const found = await deps.searchIndex.query({
        workspaceId: state.workspace.id,
        q: query,
        limit: SEARCH_LIMIT,
        publishedOnly: true,
      });
      // The index may briefly lag the site (or hold a restricted page): show only what the site serves.
      results = found.results
        .filter((r) => live.byPath.has(r.path))
        .map((r) => ({
          title: r.title,
          href: liveLinker.page(r.path),
          snippet: r.snippet,
          path: pageRoute(r.path) || '/',
        }));
      total = found.total - (found.results.length - results.length);
      await deps.analytics.recordSearch(state.workspace, query, total, req.visitor);
    }
    const footer = await deps.analytics.available(state.workspace);
    const html = renderSearchPage({
      ...chrome(served, footer ? `${served.base}search` : null),
      searchAction: `${served.base}search`,
      nav: navNodes(served.source.map, served.linker, { page: '' }),
      query,
      total,
      results,
    });
    return { type: 'document', status: 200, chunks: documentChunks(html), etag: null, cache: served.cache };
  }

  /** A cached text file of the site (keyed like {@link cachedDocument}), or a freshly built one. */
  async function cachedText(
    served: Served,
    what: string,
    build: () => Promise<string>,
  ): Promise<TextDocument> {
    const { state, mount, source, base } = served;
    const key = [
      state.workspace.id,
      state.fingerprint,
      mount.origin,
      mount.root,
      source.key,
      base,
      what,
    ].join('\u0000');
    const found = documents.get(key);
    if (found && 'text' in found) return found;
    const text = await build();
    // Named by what made it rather than by hashing its megabytes again (on the event loop):
    // the key holds the workspace's fingerprint, which every change of it moves on.
    const doc = { text, etag: weakEtag(`${VERSION}\u0000${key}`) };
    remember(state.workspace.id, state.fingerprint, key, doc);
    return doc;
  }

  const markdownSite = (served: Served) => ({ origin: served.mount.origin, base: served.base });

  async function feedResponse(served: Served, name: keyof typeof FEED_FILES): Promise<SiteResponse> {
    const { state, source } = served;
    const site: FeedSite = {
      title: state.settings.site_title,
      description: state.settings.site_description,
      origin: served.mount.origin,
      linker: served.linker,
    };
    if (name === 'llms-full.txt') {
      const doc = await cachedText(served, name, async () =>
        llmsFullTxt(source, site, await renderer.markdown.bodies(source, source.pages, markdownSite(served))),
      );
      return {
        type: 'text',
        contentType: FEED_FILES[name],
        body: doc.text,
        etag: doc.etag,
        cache: served.cache,
      };
    }
    const body =
      name === 'sitemap.xml'
        ? sitemapXml(source, site)
        : name === 'robots.txt'
          ? robotsTxt(site, state.settings.public_site)
          : name === 'rss.xml'
            ? rssXml(source, site)
            : llmsTxt(source, site);
    return { type: 'text', contentType: FEED_FILES[name], body, etag: weakEtag(body), cache: served.cache };
  }

  async function markdownResponse(served: Served, page: SitePage): Promise<SiteResponse> {
    const doc = await cachedText(served, `md:${page.path}`, () =>
      renderer.markdown.page(served.source, page, markdownSite(served)),
    );
    return {
      type: 'text',
      contentType: 'text/markdown; charset=utf-8',
      body: doc.text,
      etag: doc.etag,
      cache: served.cache,
    };
  }

  /** search.json of the source being served (`version` at a site root picks another one). */
  async function searchJson(served: Served, req: SiteRequest): Promise<SiteResponse> {
    const { state, mount } = served;
    let { source, base } = served;
    const wanted = req.version;
    if (wanted !== undefined && base === mount.root) {
      const version = state.versions.find((v) => v.slug === wanted);
      if (wanted === LIVE_VERSION_SLUG) {
        source = state.live;
        base = state.defaultVersion ? `${mount.root}v/${LIVE_VERSION_SLUG}/` : mount.root;
      } else if (version) {
        source = await context.version(state, version);
        base =
          version.id === state.defaultVersion?.id
            ? mount.root
            : `${mount.root}v/${encodeURIComponent(version.slug)}/`;
      } else return notFound(served, mount.root);
    }
    const answer = await deps.siteSearch.query(
      state.workspace.id,
      source,
      siteLinker(base),
      req.query ?? '',
      source.version ?? LIVE_VERSION_SLUG,
    );
    return searchJsonResponse(answer, served.cache);
  }

  /** Resolves a path inside one source: root, search, feeds, uploads, folders, pages, moved pages. */
  async function within(served: Served, rest: string, req: SiteRequest): Promise<SiteResponse> {
    const { source, base } = served;
    if (rest === '')
      return source.map.root.index
        ? pageResponse(served, source.map.root.index.path, req)
        : folderResponse(served, '');
    if (rest === 'search') return searchResponse(served, req);
    if (rest === 'search.json') return searchJson(served, req);
    if (isFeedFile(rest)) return feedResponse(served, rest);
    if (rest.startsWith('uploads/')) {
      const upload = await source.openUpload(rest.slice('uploads/'.length));
      return upload ? { type: 'upload', upload, cache: served.cache } : notFound(served, served.mount.root);
    }
    if (rest.endsWith('/')) {
      const folder = rest.slice(0, -1);
      const folderIndex = pageNamed(source, `${folder}/index`);
      if (folderIndex) return pageResponse(served, folderIndex.path, req);
      if (source.map.folders.has(folder)) return folderResponse(served, folder);
      // `guides/setup/` for the page `guides/setup.md`: readers and link checkers add slashes.
      const page = pageNamed(source, stripPageExtension(folder));
      if (page) return { type: 'redirect', location: served.linker.page(page.path) };
    } else {
      // `<page>.md` (`<page>.mdx`) beside each page: its published Markdown (llmstxt.org).
      const markdownOf = isPagePath(rest) ? source.byPath.get(rest) : undefined;
      if (markdownOf) return markdownResponse(served, markdownOf);
      const bare = stripPageExtension(rest);
      const page = pageNamed(source, bare);
      if (page) {
        // One URL per page: `x.md`, `x/index` and the like redirect to the canonical form.
        const canonical = pageRoute(page.path);
        return canonical === rest
          ? pageResponse(served, page.path, req)
          : { type: 'redirect', location: base + encodePath(canonical) };
      }
      if (pageNamed(source, `${bare}/index`) || source.map.folders.has(bare)) {
        return { type: 'redirect', location: `${base}${encodePath(bare)}/` };
      }
    }
    // Any other file of the repository a published page references (an image beside it).
    const asset = await source.openAsset(rest);
    if (asset) return { type: 'upload', upload: asset, cache: served.cache };
    if (source.version === null) {
      const moved = await movedTo(served, rest);
      if (moved) return { type: 'redirect', location: served.linker.page(moved) };
    }
    return notFound(served, served.mount.root);
  }

  /** The current path of a published page that used to live at `rest` (page_aliases). */
  async function movedTo(served: Served, rest: string): Promise<string | null> {
    const bare = rest.endsWith('/') ? `${rest}index` : stripPageExtension(rest);
    for (const candidate of pagePathCandidates(bare)) {
      const moved = await pagesTable.findMovedFrom(deps.store.db, served.state.workspace.id, candidate);
      if (moved && served.source.byPath.has(moved.path)) return moved.path;
    }
    return null;
  }

  return {
    /** Answers one request to a site (see {@link SiteResponse}); never throws for bad paths. */
    async serve(req: SiteRequest): Promise<SiteResponse> {
      const path = req.path.normalize('NFC');
      const asset = /^_assets\/theme-([a-z]+)-([0-9a-f]+)\.css$/.exec(path);
      const domainSlug = deps.customDomains.siteForHost(req.host);
      const onDomain = domainSlug !== null && domainSlug === req.workspace;
      const root = onDomain ? '/' : `/p/${encodeURIComponent(req.workspace)}/`;
      const favicon = /^_assets\/favicon-([a-z]+)\.svg$/.exec(path);
      if (favicon && isThemeName(favicon[1])) {
        const svg = themeFavicon(favicon[1]);
        return {
          type: 'text',
          contentType: 'image/svg+xml',
          body: svg,
          etag: weakEtag(svg),
          cache: 'public',
        };
      }
      if (path.startsWith('_assets/')) {
        const file = dialectAsset(path);
        if (file)
          return {
            type: 'text',
            contentType: file.contentType,
            body: file.body,
            etag: weakEtag(file.body),
            cache: 'immutable',
          };
      }
      const palette = path.startsWith('_assets/') ? paletteFileOf(path.slice('_assets/'.length)) : null;
      if (palette) {
        const { body } = paletteAsset(palette.name);
        return {
          type: 'text',
          contentType: palette.name.endsWith('.css')
            ? 'text/css; charset=utf-8'
            : 'text/javascript; charset=utf-8',
          body,
          etag: weakEtag(body),
          cache: palette.current ? 'immutable' : 'revalidate',
        };
      }
      if (asset && isThemeName(asset[1])) {
        const css = themeCss(asset[1]);
        const current = asset[2] === themeCssHash(asset[1]);
        return {
          type: 'text',
          contentType: 'text/css; charset=utf-8',
          body: css,
          etag: weakEtag(css),
          cache: current ? 'immutable' : 'revalidate',
        };
      }
      const state = await context.load(req.workspace);
      // Members-only sites and missing workspaces look the same; both offer a sign-in to anonymous readers.
      const signIn =
        !req.actor && !onDomain ? `/login?next=${encodeURIComponent(`${root}${path}`)}` : undefined;
      if (!state || !(await context.canRead(state, req.actor))) {
        return notFound(null, root, state?.settings.public_site ? undefined : signIn);
      }
      const mount: Mount = { root, origin: onDomain ? `https://${hostOf(req.host)}` : deps.publicUrl };
      const cache: CacheMode = state.settings.public_site ? 'public' : 'private';
      const serveFrom = (source: SiteSource, base: string, rest: string) =>
        within({ state, mount, source, base, cache, linker: siteLinker(base) }, rest, req);

      const versioned = /^v\/([^/]+)(\/.*)?$/.exec(path);
      if (versioned) {
        const [, slug = '', tail] = versioned;
        const version = state.versions.find((v) => v.slug === slug);
        if (slug === LIVE_VERSION_SLUG || version) {
          const base = `${root}v/${encodeURIComponent(slug)}/`;
          if (tail === undefined) return { type: 'redirect', location: base };
          const source = version ? await context.version(state, version) : state.live;
          return serveFrom(source, base, tail.slice(1));
        }
      }
      const source = state.defaultVersion ? await context.version(state, state.defaultVersion) : state.live;
      return serveFrom(source, root, path);
    },

    /**
     * The host's own robots.txt: crawlers read only the root one, so it lists the sitemap of
     * every public site (members-only sites stay unlisted) and keeps them out of the API and app.
     */
    async rootRobotsTxt(): Promise<SiteResponse> {
      const rows = await workspacesTable.listLive(deps.store.db);
      const sitemaps = rows
        .filter((row) => readSettings(row, { frontmatterMode: 'lenient' }).public_site)
        .map((row) => `Sitemap: ${deps.publicUrl}/p/${encodeURIComponent(row.slug)}/sitemap.xml\n`);
      const body = `User-agent: *\nAllow: /p/\nDisallow: /\n${sitemaps.length ? `\n${sitemaps.join('')}` : ''}`;
      return {
        type: 'text',
        contentType: FEED_FILES['robots.txt'],
        body,
        etag: weakEtag(body),
        cache: 'public',
      };
    },

    /** The workspace's settings or versions changed: stop serving what was cached for it. */
    invalidate: (workspaceId: string): void => context.invalidate(workspaceId),

    /**
     * An upload readable without signing in: referenced by a published page of a public
     * site. Null otherwise, so the caller answers as it would have.
     */
    async publicUpload(workspace: string, filename: string): Promise<ServedUpload | null> {
      const state = await context.load(workspace);
      if (!state?.settings.public_site) return null;
      return state.live.openUpload(filename);
    },
  };
}

export type SiteService = ReturnType<typeof createSite>;
export type { CacheMode, SiteResponse } from './response.js';
