import type { Kysely } from 'kysely';
import type {
  Database,
  PageRow,
  SearchDocumentsTable,
  UserRow,
  WorkspaceRow,
} from '../../src/store/schema.js';
import type { Queryable } from '../../src/store/repositories/queryable.js';

/*
 * Rows for repository tests that work on a migrated store directly: builders of complete
 * rows (`…Row`, `…RowOf`), each with defaults that `fields` override, and `seed…`
 * functions that insert the rows other rows point at (organizations, users, workspaces,
 * members, pages).
 */

/** The timestamp the rows carry unless a test needs another. */
export const SEEDED_AT = '2026-01-02T03:04:05.000Z';

/** A complete `users` row (`User <id>`, `<id>@example.com`). */
export function userRow(id: string, fields: Partial<UserRow> = {}): UserRow {
  return {
    id,
    email: `${id}@example.com`,
    name: `User ${id}`,
    handle: id,
    password_hash: null,
    is_platform_owner: 0,
    session_epoch: 0,
    failed_logins: 0,
    locked_until: null,
    created_at: SEEDED_AT,
    updated_at: SEEDED_AT,
    deleted_at: null,
    terms_accepted: 1,
    ...fields,
  };
}

/** A complete live `workspaces` row of organization `orgId`, its slug its id. */
export function workspaceRow(id: string, orgId: string, fields: Partial<WorkspaceRow> = {}): WorkspaceRow {
  return {
    id,
    org_id: orgId,
    name: `Workspace ${id}`,
    slug: id,
    git_remote: null,
    git_branch: 'main',
    sync_status: 'idle',
    settings: '{}',
    webhook_secret: 'secret',
    deleted_at: null,
    created_at: SEEDED_AT,
    updated_at: SEEDED_AT,
    ...fields,
  };
}

/** A page row of `workspaceId` at `path` (a draft, unrestricted), to insert with the pages repository. */
export function pageRowOf(
  id: string,
  workspaceId: string,
  path: string,
  fields: Partial<PageRow> = {},
): PageRow {
  return {
    id,
    workspace_id: workspaceId,
    path,
    title: `Title of ${path}`,
    description: '',
    tags: '[]',
    status: 'draft',
    sort_order: 0,
    content_hash: `hash-${id}`,
    frontmatter_hash: `fm-${id}`,
    frontmatter_error: null,
    restricted: 0,
    created_at: SEEDED_AT,
    updated_at: SEEDED_AT,
    updated_by: null,
    ...fields,
  };
}

/** A portable search index row of page `id` in workspace `ws-a`, published and unrestricted. */
export function documentRowOf(id: string, fields: Partial<SearchDocumentsTable> = {}): SearchDocumentsTable {
  return {
    page_id: id,
    workspace_id: 'ws-a',
    path: `${id}.md`,
    title: `Title of ${id}`,
    description: '',
    tags: '',
    body: '',
    status: 'published',
    restricted: 0,
    ...fields,
  };
}

export async function seedOrg(db: Queryable, id: string, fields: { handle?: string; name?: string } = {}) {
  await db
    .insertInto('orgs')
    .values({
      id,
      handle: fields.handle ?? id,
      name: fields.name ?? `Org ${id}`,
      plan: 'free',
      created_at: SEEDED_AT,
    })
    .execute();
}

/** A user (`User <id>`, `<id>@example.test` unless given). */
export async function seedUser(
  db: Queryable,
  id: string,
  fields: { email?: string; name?: string; isPlatformOwner?: boolean; createdAt?: string } = {},
) {
  const at = fields.createdAt ?? SEEDED_AT;
  await db
    .insertInto('users')
    .values(
      userRow(id, {
        email: fields.email ?? `${id}@example.test`,
        ...(fields.name !== undefined ? { name: fields.name } : {}),
        is_platform_owner: fields.isPlatformOwner ? 1 : 0,
        created_at: at,
        updated_at: at,
      }),
    )
    .execute();
}

/** A user per id, named after it (`Name of u1`, `u1@example.com`). */
export async function seedUsers(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    await db
      .insertInto('users')
      .values(userRow(id, { name: `Name of ${id}` }))
      .execute();
  }
}

export async function seedOrgMember(db: Queryable, orgId: string, userId: string, role = 'owner') {
  await db
    .insertInto('org_members')
    .values({ org_id: orgId, user_id: userId, role, created_at: SEEDED_AT })
    .execute();
}

export async function seedWorkspace(
  db: Queryable,
  id: string,
  orgId: string,
  fields: { slug?: string; deletedAt?: string | null } = {},
) {
  await db
    .insertInto('workspaces')
    .values(workspaceRow(id, orgId, { slug: fields.slug ?? id, deleted_at: fields.deletedAt ?? null }))
    .execute();
}

/** Organization `org-a` and a live workspace per id in it, for repository tests that need rows to point at. */
export async function seedWorkspaces(
  db: Kysely<Database>,
  ids: readonly string[],
  fields: Partial<WorkspaceRow> = {},
): Promise<void> {
  await db
    .insertInto('orgs')
    .values({ id: 'org-a', handle: 'acme', name: 'Acme', plan: 'free', created_at: SEEDED_AT })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  for (const id of ids) {
    await db
      .insertInto('workspaces')
      .values(workspaceRow(id, 'org-a', fields))
      .execute();
  }
}

export async function seedWorkspaceMember(db: Queryable, workspaceId: string, userId: string, role: string) {
  await db
    .insertInto('workspace_members')
    .values({ workspace_id: workspaceId, user_id: userId, role, created_at: SEEDED_AT })
    .execute();
}

/** A published page of `workspaceId` at `path`. */
export async function seedPage(db: Queryable, id: string, workspaceId: string, path = `${id}.md`) {
  await db
    .insertInto('pages')
    .values(pageRowOf(id, workspaceId, path, { status: 'published' }))
    .execute();
}
