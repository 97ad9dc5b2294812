import type { Kysely } from 'kysely';
import type { Database, PageRow, WorkspaceRow } from '../../src/store/schema.js';
import type { Queryable } from '../../src/store/repositories/queryable.js';

/*
 * Minimal rows that other rows point at (organizations, users, workspaces, members), for
 * repository tests that insert straight into a migrated store.
 */

export const SEEDED_AT = '2026-01-02T03:04:05.000Z';

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

export async function seedUser(
  db: Queryable,
  id: string,
  fields: { email?: string; name?: string; isPlatformOwner?: boolean; createdAt?: string } = {},
) {
  await db
    .insertInto('users')
    .values({
      id,
      email: fields.email ?? `${id}@example.test`,
      name: fields.name ?? `User ${id}`,
      handle: id,
      password_hash: null,
      is_platform_owner: fields.isPlatformOwner ? 1 : 0,
      session_epoch: 0,
      failed_logins: 0,
      locked_until: null,
      created_at: fields.createdAt ?? SEEDED_AT,
      updated_at: fields.createdAt ?? SEEDED_AT,
      deleted_at: null,
    })
    .execute();
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
    .values({
      id,
      org_id: orgId,
      name: `Workspace ${id}`,
      slug: fields.slug ?? id,
      git_remote: null,
      git_branch: 'main',
      sync_status: 'idle',
      settings: '{}',
      webhook_secret: 'secret',
      deleted_at: fields.deletedAt ?? null,
      created_at: SEEDED_AT,
      updated_at: SEEDED_AT,
    })
    .execute();
}

export async function seedPage(db: Queryable, id: string, workspaceId: string, path = `${id}.md`) {
  await db
    .insertInto('pages')
    .values({
      id,
      workspace_id: workspaceId,
      path,
      title: `Title of ${path}`,
      description: '',
      tags: '[]',
      status: 'published',
      sort_order: 0,
      content_hash: `hash-${id}`,
      frontmatter_hash: `fm-${id}`,
      frontmatter_error: null,
      restricted: 0,
      created_at: SEEDED_AT,
      updated_at: SEEDED_AT,
      updated_by: null,
    })
    .execute();
}

export async function seedWorkspaceMember(db: Queryable, workspaceId: string, userId: string, role: string) {
  await db
    .insertInto('workspace_members')
    .values({ workspace_id: workspaceId, user_id: userId, role, created_at: SEEDED_AT })
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
      .values({
        id,
        org_id: 'org-a',
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
      })
      .execute();
  }
}

/** A user per id, named after it (`Name of u1`, `u1@example.com`). */
export async function seedUsers(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    await db
      .insertInto('users')
      .values({
        id,
        email: `${id}@example.com`,
        name: `Name of ${id}`,
        handle: id,
        password_hash: null,
        is_platform_owner: 0,
        session_epoch: 0,
        failed_logins: 0,
        locked_until: null,
        created_at: SEEDED_AT,
        updated_at: SEEDED_AT,
        deleted_at: null,
      })
      .execute();
  }
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
