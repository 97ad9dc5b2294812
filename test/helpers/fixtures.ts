import { ulid } from 'ulid';
import { WorkspaceFiles } from '../../src/content/workspace-files.js';
import { markWorkspaceTree, workspaceDir } from '../../src/content/workspace-meta.js';
import type { Actor } from '../../src/domain/actor.js';
import { canonicalFrontmatter } from '../../src/domain/frontmatter.js';
import type { Role } from '../../src/domain/policy.js';
import { WorkspaceRepo } from '../../src/git/repository.js';
import { type Clock, systemClock } from '../../src/lib/clock.js';
import { randomToken } from '../../src/lib/secrets.js';
import type { SearchIndex } from '../../src/search/search-index.js';
import { createAccount } from '../../src/services/identity/accounts.js';
import { indexForSearch, rowFor } from '../../src/services/pages/page-object.js';
import { saveWorkspaceMeta, uniqueWorkspaceSlug } from '../../src/services/workspaces/records.js';
import type { Store } from '../../src/store/database.js';
import * as pagesTable from '../../src/store/repositories/pages.js';
import type { OrgsTable, PageRow, UserRow, WorkspaceRow } from '../../src/store/schema.js';

export interface FixtureDeps {
  store: Store;
  dataDir: string;
  searchIndex: SearchIndex;
  clock?: Clock;
}

/** A user, the organization they own (as its Super Admin) and an actor that signs in as them. */
export interface AccountFixture {
  user: UserRow;
  org: OrgsTable;
  actor: Actor;
}

export interface PageFixtureInput {
  /** Defaults to a fresh `page-<n>.md`. */
  path?: string;
  /** Defaults to one made from the path, as Folio reads a file without a title. */
  title?: string;
  body?: string;
  status?: 'draft' | 'published';
  /** Further frontmatter keys (description, tags, order, anything else). */
  frontmatter?: Record<string, unknown>;
}

let counter = 0;
const next = () => `${Date.now().toString(36)}${(++counter).toString(36)}`;

/** The actor a session of `user` in `orgId` is (what HTTP's authentication hands the services). */
export function actorOf(user: Pick<UserRow, 'id' | 'is_platform_owner'>, orgId: string): Actor {
  return { userId: user.id, orgId, scopes: null, via: 'jwt', isPlatformOwner: user.is_platform_owner === 1 };
}

/**
 * Rows and files put in place directly, for tests where setting up over HTTP is not the
 * point. Each builder writes what the matching service writes (accounts through
 * `createAccount` itself; workspaces like `createWorkspaces`' provisioning; pages as a
 * file plus its index row and search document), with defaults for everything not given.
 */
export function createFixtures(deps: FixtureDeps) {
  const { store, dataDir, searchIndex } = deps;
  const db = store.db;
  const now = () => (deps.clock ?? systemClock).now().toISOString();

  /** A user and their own organization; the instance's first user is its platform owner. */
  async function account(input: { name?: string; email?: string } = {}): Promise<AccountFixture> {
    const n = next();
    const { user, orgId } = await db.transaction().execute((trx) =>
      createAccount(trx, {
        name: input.name ?? `User ${n}`,
        email: input.email ?? `user-${n}@example.com`,
        passwordHash: null,
        now: now(),
      }),
    );
    const org = await db.selectFrom('orgs').selectAll().where('id', '=', orgId).executeTakeFirstOrThrow();
    return { user, org, actor: actorOf(user, orgId) };
  }

  /** An organization with no members yet (`orgMember` adds them). */
  async function organization(input: { handle?: string; name?: string } = {}): Promise<OrgsTable> {
    const handle = input.handle ?? `org-${next()}`;
    const org = { id: ulid(), handle, name: input.name ?? handle, plan: 'free', created_at: now() };
    await db.insertInto('orgs').values(org).execute();
    return org;
  }

  /** Adds `user` to an organization with an organization role (`superadmin` or `member`). */
  async function orgMember(orgId: string, userId: string, role = 'superadmin'): Promise<void> {
    await db
      .insertInto('org_members')
      .values({ org_id: orgId, user_id: userId, role, created_at: now() })
      .execute();
  }

  /**
   * A workspace of `orgId` with its tree on disk (marked as this workspace's) and its
   * metadata file. `git: true` also initialises the repository as creation does; without
   * it the tree is one where `git init` failed, which pages and search work on just the same.
   */
  async function workspace(
    orgId: string,
    input: { name?: string; slug?: string; settings?: Record<string, unknown>; git?: boolean } = {},
  ): Promise<WorkspaceRow> {
    const name = input.name ?? 'Docs';
    const at = now();
    const row: WorkspaceRow = {
      id: ulid(),
      org_id: orgId,
      name,
      slug: input.slug ?? (await uniqueWorkspaceSlug(db, `${name}-${next()}`)),
      git_remote: null,
      git_branch: 'main',
      sync_status: 'idle',
      settings: JSON.stringify(input.settings ?? {}),
      webhook_secret: randomToken(32),
      deleted_at: null,
      created_at: at,
      updated_at: at,
    };
    await db.insertInto('workspaces').values(row).execute();
    const dir = workspaceDir(dataDir, row.id);
    if (input.git) await new WorkspaceRepo(dir).init(row.git_branch);
    await markWorkspaceTree(dir, row.id);
    await saveWorkspaceMeta(db, dataDir, row);
    return row;
  }

  /** Gives `userId` a role in one workspace (as an accepted invitation does). */
  async function member(workspaceId: string, userId: string, role: Role): Promise<void> {
    await db
      .insertInto('workspace_members')
      .values({ workspace_id: workspaceId, user_id: userId, role, created_at: now() })
      .execute();
  }

  /** A page file in the workspace's tree, its index row and its search document. */
  async function page(workspaceId: string, input: PageFixtureInput = {}): Promise<PageRow> {
    const pagePath = input.path ?? `page-${next()}.md`;
    const body = input.body ?? `Text of ${pagePath}.\n`;
    const frontmatter = canonicalFrontmatter({
      id: ulid(),
      ...(input.title ? { title: input.title } : {}),
      status: input.status ?? 'draft',
      ...input.frontmatter,
    });
    await new WorkspaceFiles(workspaceDir(dataDir, workspaceId)).write(pagePath, frontmatter, body);
    const row = rowFor({
      id: frontmatter.id as string,
      workspaceId,
      path: pagePath,
      file: { frontmatter, body },
      previous: undefined,
      mode: 'lenient',
      now: now(),
      updatedBy: null,
    });
    await db.transaction().execute(async (trx) => {
      await pagesTable.insertRow(trx, row);
      await indexForSearch(trx, searchIndex, row, body);
    });
    return row;
  }

  /**
   * The usual starting point: an owner with their organization and one workspace, and
   * optionally people holding roles in it (`{ viewer: 'viewer', bob: 'editor' }`).
   */
  async function team<const K extends string>(roles: Record<K, Role> = {} as Record<K, Role>) {
    const owner = await account({ name: 'Owner' });
    const ws = await workspace(owner.org.id);
    const people = {} as Record<K, AccountFixture>;
    for (const [key, role] of Object.entries(roles) as Array<[K, Role]>) {
      people[key] = await account({ name: key });
      await member(ws.id, people[key].user.id, role);
    }
    return { owner, workspace: ws, ...people };
  }

  return { account, organization, orgMember, workspace, member, page, team };
}

export type Fixtures = ReturnType<typeof createFixtures>;

/** Fixtures on a running test server's database and DATA_DIR. */
export function fixturesOf(server: {
  dataDir: string;
  folio: { store: Store; services: { searchIndex: SearchIndex } };
}): Fixtures {
  return createFixtures({
    store: server.folio.store,
    dataDir: server.dataDir,
    searchIndex: server.folio.services.searchIndex,
  });
}
