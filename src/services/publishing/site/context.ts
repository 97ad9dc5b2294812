/**
 * Loads what the published site needs per workspace and keeps it while nothing changes,
 * so a request to a public site needs no database read at all. A workspace's state is
 * checked again (its row, and a fingerprint of its pages and versions) as soon as
 * something says it changed — page writes, moves, git sync, settings and versions through
 * the event bus (which Redis carries between instances) — and otherwise at most every {@link REVALIDATE_MS},
 * which bounds how long an edit found on disk or a change made on another instance
 * takes to show. Pages are reloaded only when the fingerprint moved.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { openUpload } from '../../../content/upload-files.js';
import { workspaceDir } from '../../../content/workspace-meta.js';
import { UPLOADS_DIR, WorkspaceFiles } from '../../../content/workspace-files.js';
import type { Actor } from '../../../domain/actor.js';
import type { EventBus } from '../../../events/bus.js';
import type { Store } from '../../../store/database.js';
import * as pagesTable from '../../../store/repositories/pages.js';
import { versionsFingerprint } from '../../../store/repositories/versions.js';
import * as workspacesTable from '../../../store/repositories/workspaces.js';
import type { WorkspaceRow } from '../../../store/schema.js';
import type { AccessService } from '../../access.js';
import { LruCache } from '../../../lib/lru-cache.js';
import { readSettings, type WorkspaceSettings } from '../../workspaces/settings.js';
import type { SitePage } from './nav.js';
import { SiteSource, type SourceLoader } from './source.js';
import { openAsset } from './assets.js';
import { workspaceNavigation, navFingerprint, type SiteNavigation } from './site-navigation.js';
import { describeUpload } from '../../pages/uploads.js';
import type { DocVersionRow, VersionsService } from '../versions.js';

/** A workspace's site as of one fingerprint. */
export interface SiteState {
  workspace: WorkspaceRow;
  settings: WorkspaceSettings;
  /** Changes whenever anything a rendered document depends on changes. */
  fingerprint: string;
  live: SiteSource;
  /** Newest first. */
  versions: DocVersionRow[];
  /** The version the root serves: settings.default_version when it exists. */
  defaultVersion: DocVersionRow | null;
  /** The workspace's own icon among its uploads (see {@link FAVICON_UPLOADS}), or null for the theme's. */
  favicon: string | null;
  /** Whose navigation the live site follows, what was found, and what could not be followed. */
  navigation: SiteNavigation;
}

/** Upload names a workspace gives its site an icon with, in order of preference. */
export const FAVICON_UPLOADS = ['favicon.svg', 'favicon.png', 'favicon.ico'] as const;

/**
 * The commit the tree is at, read from `.git` without running git (it is read at every
 * revalidation): attachments arrive with commits, and a commit that adds only an image
 * changes no page row, so the site's file index follows this instead. '' when unknown.
 */
async function treeRevision(dir: string): Promise<string> {
  try {
    const head = (await readFile(path.join(dir, '.git', 'HEAD'), 'utf8')).trim();
    const ref = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1];
    if (!ref) return head;
    if (ref.split('/').includes('..')) return '';
    const loose = await readFile(path.join(dir, '.git', ref), 'utf8').catch(() => null);
    if (loose !== null) return loose.trim();
    const packed = await readFile(path.join(dir, '.git', 'packed-refs'), 'utf8').catch(() => '');
    return (
      packed
        .split('\n')
        .find((line) => line.endsWith(` ${ref}`))
        ?.split(' ')[0] ?? ''
    );
  } catch {
    return '';
  }
}

/** The first favicon upload present, with its modification time so a replaced file is noticed. */
async function findFavicon(files: WorkspaceFiles): Promise<{ name: string; mtime: number } | null> {
  for (const name of FAVICON_UPLOADS) {
    // A path that cannot be resolved safely (a symlink out of the tree) counts as absent.
    const stat = await files.stat(`${UPLOADS_DIR}/${name}`).catch(() => null);
    if (stat) return { name, mtime: stat.mtime.getTime() };
  }
  return null;
}

export interface SiteContextDeps {
  store: Store;
  events: EventBus;
  access: AccessService;
  versions: VersionsService;
  dataDir: string;
  frontmatterMode: 'strict' | 'lenient';
}

/** Loaded versions are immutable; a few stay in memory. */
const VERSION_CACHE = 16;
const STATE_CACHE = 1_000;
/** How stale a site may be when nothing announced a change (edits on disk, other instances). */
export const REVALIDATE_MS = 1_000;
/** Events after which a workspace's published pages may differ. */
const CONTENT_EVENTS = new Set([
  'page-created',
  'page-updated',
  'page-deleted',
  'page-moved',
  'bulk-sync',
  'sync-status',
  // A favicon upload changes every document's <head>.
  'upload-created',
  'settings-changed',
  'versions-changed',
]);

interface Entry {
  workspaceId: string;
  checkedAt: number;
  /** Set by an event or `invalidate`: check before serving again. */
  dirty: boolean;
  fingerprint: string;
  state: Promise<SiteState>;
}

/** Workspace lookup, fingerprinting and the sources the site serves from. */
export function createSiteContext(deps: SiteContextDeps) {
  const db = deps.store.db;
  /** By slug, the key requests arrive with. */
  const states = new LruCache<Entry>(STATE_CACHE);
  const slugs = new Map<string, string>();
  const frozen = new LruCache<Promise<SiteSource>>(VERSION_CACHE);
  const invalidate = (workspaceId: string) => {
    const slug = slugs.get(workspaceId);
    const entry = slug === undefined ? undefined : states.get(slug);
    if (entry) entry.dirty = true;
  };
  deps.events.onAny((event) => {
    const payload = event.payload as { workspace_id?: string };
    if (CONTENT_EVENTS.has(event.type) && payload.workspace_id) invalidate(payload.workspace_id);
  });

  async function contentFingerprint(workspaceId: string): Promise<string> {
    const [pages, versions] = await Promise.all([
      pagesTable.changeFingerprint(db, workspaceId),
      versionsFingerprint(db, workspaceId),
    ]);
    return `${pages}|${versions}`;
  }

  async function build(
    workspace: WorkspaceRow,
    fingerprint: string,
    favicon: string | null,
  ): Promise<SiteState> {
    const settings = readSettings(workspace, { frontmatterMode: deps.frontmatterMode });
    const [rows, versions] = await Promise.all([
      pagesTable.listPublished(db, workspace.id),
      deps.versions.listRows(workspace.id),
    ]);
    const pages: SitePage[] = rows.map((r) => ({
      id: r.id,
      path: r.path,
      title: r.title,
      description: r.description,
      sortOrder: r.sort_order,
      contentHash: r.content_hash,
      updatedAt: r.updated_at,
    }));
    const files = new WorkspaceFiles(workspaceDir(deps.dataDir, workspace.id));
    const loader: SourceLoader = {
      readBody: async (page) => (await files.read(page.path))?.body ?? null,
      listFiles: async () => {
        const paths: string[] = [];
        for await (const path of files.walkFiles()) paths.push(path);
        return paths;
      },
      openAsset: (path) => openAsset(files, path),
      openUpload: async (name) => {
        const opened = await openUpload(files, name);
        if (!opened) return null;
        return {
          stream: opened.handle.createReadStream({ start: 0, autoClose: true }),
          size: opened.size,
          ...describeUpload(opened.head),
          filename: name,
        };
      },
    };
    const navigation = await workspaceNavigation(
      files,
      settings.nav_source,
      pages.map((p) => p.path),
    );
    const live = new SiteSource(
      'live',
      null,
      workspace.slug,
      pages,
      settings.site_title,
      loader,
      favicon,
      navigation.outline,
    );
    const defaultVersion = versions.find((v) => v.slug === settings.default_version) ?? null;
    return { workspace, settings, fingerprint, live, versions, defaultVersion, favicon, navigation };
  }

  return {
    /** The site of the workspace with this slug, or null when there is none (deleted counts as none). */
    async load(slug: string): Promise<SiteState | null> {
      const now = Date.now();
      const cached = states.get(slug);
      if (cached && !cached.dirty && now - cached.checkedAt < REVALIDATE_MS) return cached.state;
      // Cleared before reading, so a change announced during the reads marks it again.
      if (cached) cached.dirty = false;
      const workspace = await workspacesTable.findLiveBySlug(db, slug);
      if (!workspace) {
        states.delete(slug);
        return null;
      }
      const dir = workspaceDir(deps.dataDir, workspace.id);
      const files = new WorkspaceFiles(dir);
      const [content, favicon, revision, nav] = await Promise.all([
        contentFingerprint(workspace.id),
        findFavicon(files),
        treeRevision(dir),
        // A docs tool's config (or a _category_ file arriving by git) changes the navigation.
        navFingerprint(files),
      ]);
      const fingerprint = [
        workspace.id,
        content,
        revision,
        favicon ? `${favicon.name}@${favicon.mtime}` : '',
        workspace.updated_at,
        workspace.settings,
        workspace.name,
        nav,
      ].join('\u0000');
      if (cached?.fingerprint === fingerprint) {
        cached.checkedAt = now;
        return cached.state;
      }
      const state = build(workspace, fingerprint, favicon?.name ?? null);
      states.set(slug, { workspaceId: workspace.id, checkedAt: now, dirty: false, fingerprint, state });
      slugs.set(workspace.id, slug);
      state.catch(() => states.delete(slug));
      return state;
    },

    /** Makes the next request check the workspace again (its settings or versions changed). */
    invalidate,

    /** A version's pages as a source, read from git once and then kept. */
    version(state: SiteState, version: DocVersionRow): Promise<SiteSource> {
      const key = `${version.id}\u0000${state.settings.site_title}`;
      let source = frozen.get(key);
      if (!source) {
        source = deps.versions.load(state.workspace, version).then(
          (v) =>
            new SiteSource(
              `v:${version.slug}`,
              version.slug,
              state.workspace.slug,
              v.pages,
              state.settings.site_title,
              {
                readBody: async (page) => v.bodies.get(page.path) ?? null,
                openUpload: (name) => v.openUpload(name),
                listFiles: () => v.listFiles(),
                openAsset: (path) => v.openAsset(path),
              },
            ),
        );
        frozen.set(key, source);
        source.catch(() => frozen.delete(key));
      }
      return source;
    },

    /** Public sites: anyone. Members-only sites: a signed-in member of the workspace. */
    async canRead(state: SiteState, actor: Actor | null): Promise<boolean> {
      if (state.settings.public_site) return true;
      if (!actor) return false;
      return (await deps.access.roleIn(actor, state.workspace)) !== null;
    },
  };
}

export type SiteContext = ReturnType<typeof createSiteContext>;
