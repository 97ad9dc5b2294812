import type { Queryable } from './queryable.js';

/*
 * The reads of an organization's export: the organization, its members, and each live
 * workspace with its members (files come from disk, not from here).
 */

/** The organization's exported columns, or undefined. */
export async function findOrgForExport(db: Queryable, orgId: string) {
  return db
    .selectFrom('orgs')
    .select(['id', 'handle', 'name', 'plan', 'created_at'])
    .where('id', '=', orgId)
    .executeTakeFirst();
}

/** The organization's members with their role, oldest membership first. */
export async function listOrgMembersForExport(db: Queryable, orgId: string) {
  return db
    .selectFrom('org_members')
    .innerJoin('users', 'users.id', 'org_members.user_id')
    .select([
      'users.id',
      'users.name',
      'users.email',
      'users.handle',
      'org_members.role',
      'org_members.created_at',
    ])
    .where('org_members.org_id', '=', orgId)
    .orderBy('org_members.created_at')
    .execute();
}

/** The organization's live workspaces (settings as stored JSON), by slug. */
export async function listLiveWorkspacesForExport(db: Queryable, orgId: string) {
  return db
    .selectFrom('workspaces')
    .select(['id', 'name', 'slug', 'git_remote', 'git_branch', 'settings', 'created_at', 'updated_at'])
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .orderBy('slug')
    .execute();
}

/** A workspace's members with their role, by user id. */
export async function listWorkspaceMembersForExport(db: Queryable, workspaceId: string) {
  return db
    .selectFrom('workspace_members')
    .innerJoin('users', 'users.id', 'workspace_members.user_id')
    .select(['users.id', 'users.name', 'users.email', 'users.handle', 'workspace_members.role'])
    .where('workspace_members.workspace_id', '=', workspaceId)
    .orderBy('users.id')
    .execute();
}
