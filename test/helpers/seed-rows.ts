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
