import type { PlanLimits } from '../collab/plan-limits.js';
import { rm } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { ulid } from 'ulid';
import { z } from 'zod';
import {
  markWorkspaceTree,
  metaFromRow,
  workspaceDir,
  workspaceMetaDir,
  writeWorkspaceMeta,
} from '../../content/workspace-meta.js';
import { WorkspaceFiles } from '../../content/workspace-files.js';
import { type Actor, isSystem } from '../../domain/actor.js';
import { canonicalFrontmatter } from '../../domain/frontmatter.js';
import { atLeast, CAN, isRole, requireScope, type Role } from '../../domain/policy.js';
import { validateSlug } from '../../domain/slug.js';
import { AppError, forbidden } from '../../errors.js';
import { FOLIO_IDENTITY, WorkspaceRepo } from '../../git/repository.js';
import type { TrustedHostKey } from '../../git/known-hosts.js';
import type { Logger } from '../../logger.js';
import type { SearchIndex } from '../../search/search-index.js';
import type { Store } from '../../store/database.js';
import * as pagesTable from '../../store/repositories/pages.js';
import * as orgsTable from '../../store/repositories/orgs.js';
import { isPlatformOwner } from '../../store/repositories/users.js';
import { listWorkspaceRoles } from '../../store/repositories/workspace-members.js';
import * as workspacesTable from '../../store/repositories/workspaces.js';
import type { Database, WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import { actorIdOf, record } from '../activity.js';
import type { StarterWorkspaceFactory } from '../identity/auth.js';
import type { Clock } from '../../lib/clock.js';
import { indexForSearch, rowFor } from '../pages/page-object.js';
import { type SkippedFile, unindexableFiles } from '../pages/reconcile-files.js';
import { classifyRemoteFor, type RemoteRules } from './remote-rules.js';
import { randomToken } from '../../lib/secrets.js';
import { type SyncSummary, syncSummaries } from '../sync/state.js';
import { WELCOME_BODY, WELCOME_FRONTMATTER } from './welcome-page.js';
import { readSettings } from './settings.js';
import { adoptOrphanWorkspaces, uniqueWorkspaceSlug } from './records.js';

const ULID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export const createWorkspaceInput = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(200)
    .describe('Display name, e.g. "Platform docs".'),
  slug: z.string({ error: 'Slug is required' }).describe('URL name, e.g. "platform-docs".'),
  git_remote: z
    .string()
    .trim()
    .max(2048)
    .nullable()
    .optional()
    .describe('A git remote to sync with, e.g. "https://git.example.com/docs.git".'),
  git_branch: z.string().trim().min(1).max(255).optional().describe('The branch to sync (default "main").'),
  /** The owning organization's handle; the caller's own organization by default. */
  org: z.string().trim().min(1).max(100).optional(),
});

export const listWorkspacesInput = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(50)
    .describe('Most workspaces to return (default 50).'),
  cursor: z
    .string()
    .regex(ULID_RE, 'cursor is not one this API gave out')
    .optional()
    .describe('next_cursor from a previous call, for the next page.'),
});

/** The API's workspace; the webhook fields only for admins. */
export interface WorkspaceRecord {
  id: string;
  name: string;
  slug: string;
  git_remote: string | null;
  git_branch: string;
  org_handle: string;
  role: Role;
  sync_status: string;
  /** When a pull or push last went through; null before the first. */
  last_sync_at: string | null;
  /** Why the last sync failed (redacted; admins only), null after a success. */
  last_error?: string | null;
  /** Admins only: the SSH host key trusted on first contact with an ssh remote, null before. */
  git_host_key?: TrustedHostKey | null;
  /** Admins only: the user name of the stored HTTPS credentials, null when none are stored. */
  git_username?: string | null;
  public_site: boolean;
  created_at: string;
  updated_at: string;
  webhook_secret?: string;
  webhook_url?: string;
  /**
   * Page files in the tree that cannot be indexed (a reserved top-level name, a name the API
   * would spell differently), with why; shown when one workspace is read.
   */
  skipped?: SkippedFile[];
}

export interface WorkspacesDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  access: AccessService;
  searchIndex: SearchIndex;
  dataDir: string;
  publicUrl: string;
  /** What a workspace's git remote may be. */
  remoteRules: RemoteRules;
  /** The Cloud edition's workspace limit. */
  planLimits?: Pick<PlanLimits, 'requireWorkspace'>;
}

const isUniqueViolation = (error: unknown) => /unique|duplicate/i.test((error as Error).message ?? '');

/**
 * Workspaces: a row, plus a git working tree at DATA_DIR/workspaces/<id>/ and
 * a metadata file at DATA_DIR/meta/<id>/workspace.json that lets `rebuild` restore the row. Creating and
 * deleting need the organization's Super Admin; deletion is soft.
 */
export function createWorkspaces(deps: WorkspacesDeps) {
  const { store, clock, dataDir } = deps;
  const db = store.db;

  function present(row: WorkspaceRow, orgHandle: string, role: Role, sync?: SyncSummary): WorkspaceRecord {
    // Only public_site is shown here, so the frontmatter mode's default does not matter.
    const publicSite = readSettings(row, { frontmatterMode: 'lenient' }).public_site;
    const out: WorkspaceRecord = {
      id: row.id,
      name: row.name,
      slug: row.slug,
      git_remote: row.git_remote,
      git_branch: row.git_branch,
      org_handle: orgHandle,
      role,
      sync_status: row.sync_status,
      last_sync_at: sync?.last_sync_at ?? null,
      public_site: publicSite,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
    if (atLeast(role, 'admin')) {
      out.last_error = sync?.last_error ?? null;
      out.git_host_key = sync?.git_host_key ?? null;
      out.git_username = sync?.git_username ?? null;
      out.webhook_secret = row.webhook_secret;
      out.webhook_url = `${deps.publicUrl}/api/git/webhook/${row.id}`;
    }
    return out;
  }

  /**
   * Creates the working tree (a git repository on the workspace's branch, marked as this
   * workspace's tree) and the metadata file outside it. An invalid branch name is the caller's 400; a missing
   * or failing git binary is logged, since sync (which needs git) can
   * initialise the repository later and the pages work without it. Answers the
   * repository, or null without one.
   */
  async function provision(row: WorkspaceRow, orgHandle: string): Promise<WorkspaceRepo | null> {
    const dir = workspaceDir(dataDir, row.id);
    let repo: WorkspaceRepo | null = new WorkspaceRepo(dir);
    try {
      await repo.init(row.git_branch);
    } catch (error) {
      if (error instanceof AppError) throw error;
      deps.logger.warn(
        { err: error, workspace_id: row.id },
        'git init failed; the workspace works without git',
      );
      repo = null;
    }
    await markWorkspaceTree(dir, row.id);
    await writeWorkspaceMeta(dataDir, metaFromRow(row, orgHandle));
    return repo;
  }

  /**
   * The new tree's files (its `.gitignore`, the starter's welcome page) become its first
   * commit, by Folio, which made them. No lock: nobody else knows the workspace before its
   * transaction commits. A failing git is logged: the first sync or web commit takes them.
   */
  async function commitFirst(repo: WorkspaceRepo | null, id: string, paths: string[], message: string) {
    try {
      await repo?.commitPaths(paths, {
        authorName: FOLIO_IDENTITY.name,
        authorEmail: FOLIO_IDENTITY.email,
        message,
      });
    } catch (error) {
      deps.logger.warn({ err: error, workspace_id: id }, 'committing the new workspace failed');
    }
  }

  function newRow(fields: {
    orgId: string;
    name: string;
    slug: string;
    gitRemote: string | null;
    gitBranch: string;
    now: string;
  }): WorkspaceRow {
    return {
      id: ulid(),
      org_id: fields.orgId,
      name: fields.name,
      slug: fields.slug,
      git_remote: fields.gitRemote,
      git_branch: fields.gitBranch,
      sync_status: 'idle',
      settings: '{}',
      webhook_secret: randomToken(32),
      deleted_at: null,
      created_at: fields.now,
      updated_at: fields.now,
    };
  }

  /** Whether the actor is Super Admin of the organization (an API key only within its own). */
  async function superAdminOf(actor: Actor, orgId: string): Promise<boolean> {
    if (isSystem(actor)) return true;
    if (actor.via === 'api_key' && actor.orgId !== orgId) return false;
    return (await orgsTable.findOrgRole(db, orgId, actor.userId)) === 'superadmin';
  }

  /** Runs `body` in a transaction; the tree it created is removed again if anything fails. */
  async function withCleanup<T>(
    trx: Kysely<Database> | null,
    id: string,
    body: (trx: Kysely<Database>) => Promise<T>,
  ) {
    try {
      return trx ? await body(trx) : await db.transaction().execute(body);
    } catch (error) {
      for (const dir of [workspaceDir(dataDir, id), workspaceMetaDir(dataDir, id)])
        await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      throw error;
    }
  }

  /**
   * The starter workspace of a new organization ("Docs", slug
   * `<org-handle>-docs` made unique, one published welcome page), inside the
   * registration transaction. The instance's first user also adopts the
   * workspaces a rebuild restored before anyone registered.
   */
  const createStarterWorkspace: StarterWorkspaceFactory = async (trx, { userId, orgId, now }) => {
    const handle = await orgsTable.findOrgHandle(trx, orgId);
    if (handle === undefined) throw new Error(`No organization ${orgId} for the starter workspace`);
    if (await isPlatformOwner(trx, userId)) await adoptOrphanWorkspaces(trx, dataDir, orgId);
    const slug = await uniqueWorkspaceSlug(trx, `${handle}-docs`);
    const row = newRow({ orgId, name: 'Docs', slug, gitRemote: null, gitBranch: 'main', now });
    await withCleanup(trx, row.id, async (t) => {
      await workspacesTable.insertRow(t, row);
      const repo = await provision(row, handle);
      const frontmatter = canonicalFrontmatter({ id: ulid(), ...WELCOME_FRONTMATTER });
      const files = new WorkspaceFiles(workspaceDir(dataDir, row.id));
      await files.write('index.md', frontmatter, WELCOME_BODY);
      await commitFirst(
        repo,
        row.id,
        ['.gitignore', 'index.md'],
        `docs: create ${WELCOME_FRONTMATTER.title}`,
      );
      const page = rowFor({
        id: frontmatter.id as string,
        workspaceId: row.id,
        path: 'index.md',
        file: { frontmatter, body: WELCOME_BODY },
        previous: undefined,
        mode: 'lenient',
        now,
        updatedBy: null,
      });
      await pagesTable.insertRow(t, page);
      await indexForSearch(t, deps.searchIndex, page, WELCOME_BODY);
      await record(t, {
        workspaceId: row.id,
        action: 'page_created',
        path: 'index.md',
        pageId: page.id,
        actorId: null,
        at: now,
        details: { source: 'starter' },
      });
    });
  };

  return {
    createStarterWorkspace,

    /** Workspaces where the caller is a member or its organization's Super Admin, oldest first. */
    async list(actor: Actor, input: z.infer<typeof listWorkspacesInput>) {
      requireScope(actor, 'read');
      let among: workspacesTable.Among | undefined;
      const superOrgs = new Set<string>();
      const memberRoles = new Map<string, string>();
      if (!isSystem(actor)) {
        const [orgs, memberships] = await Promise.all([
          orgsTable.listMembershipsOfUser(db, actor.userId, { role: 'superadmin' }),
          listWorkspaceRoles(db, actor.userId),
        ]);
        for (const org of orgs) superOrgs.add(org.id);
        for (const m of memberships) memberRoles.set(m.workspace_id, m.role);
        const orgIds = [...superOrgs];
        const wsIds = [...memberRoles.keys()];
        if (orgIds.length === 0 && wsIds.length === 0) return { data: [], next_cursor: null };
        among = { orgIds, ids: wsIds, ...(actor.via === 'api_key' ? { onlyOrg: actor.orgId } : {}) };
      }
      const rows = await workspacesTable.listLiveWithOrgHandle(db, {
        ...(among ? { among } : {}),
        ...(input.cursor ? { after: input.cursor } : {}),
        limit: input.limit + 1,
      });
      const roleOf = (row: WorkspaceRow): Role => {
        if (isSystem(actor) || superOrgs.has(row.org_id)) return 'superadmin';
        const role = memberRoles.get(row.id);
        return isRole(role) ? role : 'viewer';
      };
      const page = rows.slice(0, input.limit);
      const syncs = await syncSummaries(
        db,
        dataDir,
        page.map((r) => r.id),
      );
      const data = page.map(({ org_handle, ...row }) =>
        present(row, org_handle, roleOf(row), syncs.get(row.id)),
      );
      return { data, next_cursor: rows.length > input.limit ? (data[data.length - 1]?.id ?? null) : null };
    },

    /** One workspace by id or slug; 404 without read access. */
    async get(actor: Actor, idOrSlug: string): Promise<WorkspaceRecord> {
      const { workspace, role } = await deps.access.require(actor, idOrSlug, CAN.read);
      const handle = await orgsTable.findOrgHandle(db, workspace.org_id);
      const syncs = await syncSummaries(db, dataDir, [workspace.id]);
      const skipped = await unindexableFiles(new WorkspaceFiles(workspaceDir(dataDir, workspace.id)));
      return { ...present(workspace, handle ?? '', role, syncs.get(workspace.id)), skipped };
    },

    /** Super Admin of the organization only; 409 when the slug is taken. */
    async create(actor: Actor, input: z.infer<typeof createWorkspaceInput>): Promise<WorkspaceRecord> {
      requireScope(actor, 'write');
      const org = await (input.org
        ? orgsTable.findOrgByHandle(db, input.org)
        : orgsTable.findOrgById(db, actor.orgId));
      if (!org || !(await superAdminOf(actor, org.id))) {
        throw forbidden('Only a Super Admin of the organization can create workspaces');
      }
      const slug = validateSlug(input.slug);
      await deps.planLimits?.requireWorkspace(org.id);
      const gitRemote = input.git_remote
        ? (await classifyRemoteFor(actor, input.git_remote, deps.remoteRules)).display
        : null;
      const slugTaken = () =>
        new AppError('CONFLICT', `A workspace with the slug "${slug}" already exists`, {
          details: { field: 'slug' },
        });
      if (await workspacesTable.isSlugTaken(db, slug)) throw slugTaken();
      const now = clock.now().toISOString();
      const row = newRow({
        orgId: org.id,
        name: input.name,
        slug,
        gitRemote,
        gitBranch: input.git_branch ?? 'main',
        now,
      });
      try {
        await withCleanup(null, row.id, async (trx) => {
          await workspacesTable.insertRow(trx, row);
          await record(trx, {
            workspaceId: row.id,
            action: 'workspace_created',
            actorId: actorIdOf(actor),
            at: now,
            details: { name: row.name, slug },
          });
          const repo = await provision(row, org.handle);
          await commitFirst(repo, row.id, ['.gitignore'], 'docs: keep Folio metadata out of git');
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw slugTaken();
        throw error;
      }
      return present(row, org.handle, 'superadmin');
    },

    /** Soft delete: the workspace answers 404 from now on; its files stay on disk. */
    async remove(actor: Actor, idOrSlug: string): Promise<void> {
      const { workspace } = await deps.access.require(actor, idOrSlug, CAN.deleteWorkspace);
      const now = clock.now().toISOString();
      const handle = await orgsTable.findOrgHandle(db, workspace.org_id);
      await db.transaction().execute(async (trx) => {
        await workspacesTable.softDelete(trx, workspace.id, now);
        await deps.searchIndex.removeWorkspace(trx, workspace.id);
        await record(trx, {
          workspaceId: workspace.id,
          action: 'workspace_deleted',
          actorId: actorIdOf(actor),
          at: now,
          details: { slug: workspace.slug },
        });
        const deleted = { ...workspace, deleted_at: now, updated_at: now };
        await writeWorkspaceMeta(dataDir, metaFromRow(deleted, handle ?? ''));
      });
    },
  };
}

export type WorkspacesService = ReturnType<typeof createWorkspaces>;
