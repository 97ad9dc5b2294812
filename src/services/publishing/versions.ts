import { monotonicFactory } from 'ulid';
import { z } from 'zod';
import { workspaceDir } from '../../content/workspace-meta.js';
import { type Actor, isSystem } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import { AppError, notFound } from '../../errors.js';
import type { WorkspaceLock } from '../../git/lock.js';
import { WorkspaceRepo } from '../../git/repository.js';
import type { Logger } from '../../logger.js';
import type { EventBus } from '../../events/bus.js';
import type { Store } from '../../store/database.js';
import * as pagesTable from '../../store/repositories/pages.js';
import { readStoredSettings, writeStoredSettings } from '../../store/repositories/workspace-settings.js';
import * as versionsTable from '../../store/repositories/versions.js';
import type { DocVersionRow } from '../../store/repositories/versions.js';
import type { WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import { actorIdOf, record } from '../activity.js';
import type { Clock } from '../../lib/clock.js';
import type { GitSyncService } from '../sync/git-sync.js';
import type { Reconciler } from '../pages/reconcile.js';
import { readSettings, type SettingsService } from '../workspaces/settings.js';
import { loadFrozenVersion, type FrozenVersion } from './version-files.js';

export type { DocVersionRow };

/** The site serves the live pages under `/v/latest/`, so no version may take that name. */
export const LIVE_VERSION_SLUG = 'latest';

const ULID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** Lowercase letters, digits, dots, dashes and underscores (`v1`, `2.0`, `2024-q1`), as URLs and git tags allow. */
export const versionSlug = z
  .string({ error: 'slug is required' })
  .trim()
  .min(1, 'slug is required')
  .max(64, 'slug must be at most 64 characters')
  .regex(
    /^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/,
    'slug may contain lowercase letters, digits, ".", "-" and "_", and must start and end with a letter or digit',
  )
  .refine((s) => !s.includes('..') && !s.endsWith('.lock'), 'slug must not contain ".." or end in ".lock"')
  .refine(
    (s) => s !== LIVE_VERSION_SLUG,
    `"${LIVE_VERSION_SLUG}" names the live pages and cannot be a version`,
  );

export const createVersionInput = z.object({
  slug: versionSlug.describe('URL name of the version, e.g. "v1" or "2025.1".'),
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(200)
    .describe('Display name, e.g. "Version 1".'),
});

export const listVersionsInput = z.object({
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1)
    .max(100)
    .default(20)
    .describe('Most versions to return (default 20).'),
  cursor: z
    .string()
    .regex(ULID_RE, 'cursor is not one this API gave out')
    .optional()
    .describe('next_cursor from a previous call, for the next page.'),
});

/** The API's doc version record. */
export interface VersionRecord {
  slug: string;
  name: string;
  is_default: boolean;
  page_count: number;
  created_at: string;
}

/** One frozen page of a version. */
export interface VersionPage {
  path: string;
  page_id: string;
  content_hash: string;
  title: string;
}

export interface VersionsDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  access: AccessService;
  settings: SettingsService;
  reconciler: Reconciler;
  lock: WorkspaceLock;
  /** Commits the tree under the workspace lock (pending web commits first), for the tag. */
  git: Pick<GitSyncService, 'commitEverythingLocked'>;
  dataDir: string;
  frontmatterMode: 'strict' | 'lenient';
  /** `versions-changed` goes out after a version is made or removed. */
  events?: EventBus;
}

const nextId = monotonicFactory();
const tagOf = (slug: string): string => `folio-version/${slug}`;

/**
 * Documentation versions: creating one commits the
 * workspace tree and tags it, then records which published pages it froze. The site
 * reads a version's files back from the tag, so a version never changes afterwards.
 */
export function createVersions(deps: VersionsDeps) {
  const db = deps.store.db;
  const repoOf = (workspace: WorkspaceRow) => new WorkspaceRepo(workspaceDir(deps.dataDir, workspace.id));
  const defaultOf = (workspace: WorkspaceRow) =>
    readSettings(workspace, { frontmatterMode: deps.frontmatterMode }).default_version;

  const present = (row: DocVersionRow, defaultSlug: string | null): VersionRecord => ({
    slug: row.slug,
    name: row.name,
    is_default: row.slug === defaultSlug,
    page_count: row.page_count,
    created_at: row.created_at,
  });

  const findRow = (workspaceId: string, slug: string) =>
    versionsTable.findVersionBySlug(db, workspaceId, slug);

  async function requireRow(workspaceId: string, slug: string): Promise<DocVersionRow> {
    const row = await findRow(workspaceId, slug);
    if (!row) throw notFound('Version');
    return row;
  }

  async function identity(actor: Actor): Promise<{ authorName: string; authorEmail: string } | undefined> {
    if (isSystem(actor)) return undefined;
    const user = await versionsTable.findTaggerIdentity(db, actor.userId);
    return user ? { authorName: user.name, authorEmail: user.email } : undefined;
  }

  /** Commits the tree and tags it; git failing is the operator's problem, said as such (503). */
  async function freezeTree(
    workspace: WorkspaceRow,
    slug: string,
    name: string,
    actor: Actor,
  ): Promise<string> {
    try {
      const repo = await deps.git.commitEverythingLocked(workspace);
      // A tag left by an earlier failed attempt names no version: replace it.
      await repo.deleteTag(tagOf(slug));
      return await repo.tag(
        tagOf(slug),
        `Folio documentation version: ${name}`,
        'HEAD',
        await identity(actor),
      );
    } catch (error) {
      if (error instanceof AppError) throw error;
      deps.logger.error({ err: error, workspace_id: workspace.id }, 'freezing a version failed');
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'The workspace repository could not be tagged; is git installed?',
        { cause: error },
      );
    }
  }

  return {
    /** Admins: freezes the published pages under `slug`; 409 when the slug is taken. */
    async create(actor: Actor, workspaceId: string, input: z.infer<typeof createVersionInput>) {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.administer);
      const conflict = () =>
        new AppError('CONFLICT', `A version with the slug "${input.slug}" already exists`, {
          details: { field: 'slug' },
        });
      if (await findRow(workspace.id, input.slug)) throw conflict();
      const row = await deps.lock.run(workspace.id, async () => {
        // The index must describe the files being tagged (an edit on disk may not be indexed yet).
        await deps.reconciler.reconcileLocked(workspace, { recordActivity: true });
        const commit = await freezeTree(workspace, input.slug, input.name, actor);
        const pages = await pagesTable.listPublished(db, workspace.id);
        const now = deps.clock.now().toISOString();
        const version: DocVersionRow = {
          id: nextId(),
          workspace_id: workspace.id,
          slug: input.slug,
          name: input.name,
          tag: tagOf(input.slug),
          commit_sha: commit,
          page_count: pages.length,
          created_by: actorIdOf(actor),
          created_at: now,
        };
        try {
          await db.transaction().execute(async (trx) => {
            await versionsTable.insertVersionWithPages(
              trx,
              version,
              pages.map((p) => ({
                path: p.path,
                page_id: p.id,
                content_hash: p.content_hash,
                title: p.title,
              })),
            );
            await record(trx, {
              workspaceId: workspace.id,
              action: 'version_created',
              actorId: actorIdOf(actor),
              at: now,
              details: {
                slug: version.slug,
                name: version.name,
                page_count: version.page_count,
                tag: version.tag,
              },
            });
          });
        } catch (error) {
          await repoOf(workspace)
            .deleteTag(version.tag)
            .catch(() => false);
          if (/unique|duplicate/i.test((error as Error).message)) throw conflict();
          throw error;
        }
        return version;
      });
      deps.events?.emit('versions-changed', {
        workspace_id: workspace.id,
        change: 'created',
        slug: row.slug,
        name: row.name,
      });
      return present(row, defaultOf(workspace));
    },

    /** Readers: newest first, paginated `{ data, next_cursor }`. */
    async list(actor: Actor, workspaceId: string, input: z.infer<typeof listVersionsInput>) {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.read);
      const rows = await versionsTable.listVersionsOfWorkspace(db, workspace.id, {
        ...(input.cursor ? { before: input.cursor } : {}),
        limit: input.limit + 1,
      });
      const page = rows.slice(0, input.limit);
      const defaultSlug = defaultOf(workspace);
      return {
        data: page.map((r) => present(r, defaultSlug)),
        next_cursor: rows.length > input.limit ? (page[page.length - 1]?.id ?? null) : null,
      };
    },

    /** Readers: one version with the pages it froze. */
    async get(
      actor: Actor,
      workspaceId: string,
      slug: string,
    ): Promise<VersionRecord & { pages: VersionPage[] }> {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.read);
      const row = await requireRow(workspace.id, slug);
      const pages = (await versionsTable.listPagesOfVersion(db, row.id)).map((p) => ({
        path: p.path,
        page_id: p.page_id,
        content_hash: p.content_hash,
        title: p.title,
      }));
      return { ...present(row, defaultOf(workspace)), pages };
    },

    /** Admins: the site root serves this version from now on (settings.default_version). */
    async setDefault(actor: Actor, workspaceId: string, slug: string): Promise<VersionRecord> {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.administer);
      const row = await requireRow(workspace.id, slug);
      await deps.settings.update(actor, workspace.id, { default_version: row.slug });
      return present(row, row.slug);
    },

    /** Admins: removes the version and its tag; a default version stops being the default. */
    async remove(actor: Actor, workspaceId: string, slug: string): Promise<void> {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.administerDelete);
      const row = await requireRow(workspace.id, slug);
      const now = deps.clock.now().toISOString();
      await db.transaction().execute(async (trx) => {
        await versionsTable.deleteVersion(trx, row.id);
        const settings = (await readStoredSettings(trx, workspace.id)) ?? {};
        if (settings.default_version === row.slug) {
          // A dangling default would make the root fall back silently; clear it with the version.
          delete settings.default_version;
          await writeStoredSettings(trx, workspace.id, settings, { updatedAt: now });
        }
        await record(trx, {
          workspaceId: workspace.id,
          action: 'version_deleted',
          actorId: actorIdOf(actor),
          at: now,
          details: { slug: row.slug, name: row.name },
        });
      });
      deps.events?.emit('versions-changed', {
        workspace_id: workspace.id,
        change: 'deleted',
        slug: row.slug,
        name: row.name,
      });
      await repoOf(workspace)
        .deleteTag(row.tag)
        .catch((err: unknown) =>
          deps.logger.warn({ err, workspace_id: workspace.id }, 'could not delete a version tag'),
        );
    },

    /** The version rows of a workspace, newest first (for the site's version menu). */
    listRows: (workspaceId: string) => versionsTable.listVersionsOfWorkspace(db, workspaceId),

    /** Reads a version's frozen files back from its tag, for the published site and nothing else. */
    load: (workspace: WorkspaceRow, row: DocVersionRow): Promise<FrozenVersion> =>
      loadFrozenVersion(repoOf(workspace), db, row),
  };
}

export type VersionsService = ReturnType<typeof createVersions>;
export type { FrozenVersion } from './version-files.js';
