import type { Selectable } from 'kysely';
import type { WorkspaceMembersTable } from '../schema.js';
import { findOrgRole } from './orgs.js';
import type { Queryable } from './queryable.js';

/*
 * `workspace_members`: a user's role in one workspace. An organization's Super Admins hold
 * their role through `org_members` (orgs.ts), not here.
 */

export type WorkspaceMemberRow = Selectable<WorkspaceMembersTable>;

/** A member of a workspace with their user record. */
export interface WorkspaceMemberUser {
  user_id: string;
  name: string;
  email: string;
  handle: string;
  role: string;
  joined_at: string;
}

/** The stored role that gives a user their place in a workspace. */
export interface StoredWorkspaceRole {
  /** `superadmin` through the organization, or the role held in the workspace itself (unchecked). */
  role: string;
  /** True when the role comes from being a Super Admin of the workspace's organization. */
  viaOrg: boolean;
}

/** The role a user holds in the workspace itself, or undefined when they hold none there. */
export async function findWorkspaceRole(
  db: Queryable,
  workspaceId: string,
  userId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('workspace_members')
    .select('role')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

/** The workspaces the user is a member of, with their role in each (deleted workspaces included). */
export function listWorkspaceRoles(
  db: Queryable,
  userId: string,
): Promise<Array<{ workspace_id: string; role: string }>> {
  return db
    .selectFrom('workspace_members')
    .select(['workspace_id', 'role'])
    .where('user_id', '=', userId)
    .execute();
}

/** The workspace's members with their user record, in no particular order. */
export function listWorkspaceMemberUsers(db: Queryable, workspaceId: string): Promise<WorkspaceMemberUser[]> {
  return db
    .selectFrom('workspace_members')
    .innerJoin('users', 'users.id', 'workspace_members.user_id')
    .select([
      'users.id as user_id',
      'users.name',
      'users.email',
      'users.handle',
      'workspace_members.role',
      'workspace_members.created_at as joined_at',
    ])
    .where('workspace_members.workspace_id', '=', workspaceId)
    .execute();
}

/** Makes the user a member with `row.role`, or gives an existing member that role (keeping when they joined). */
export async function upsertWorkspaceMember(db: Queryable, row: WorkspaceMemberRow): Promise<void> {
  await db
    .insertInto('workspace_members')
    .values(row)
    .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ role: row.role }))
    .execute();
}

/** Removes the user from the workspace; answers false when they were not a member. */
export async function deleteWorkspaceMember(
  db: Queryable,
  workspaceId: string,
  userId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('workspace_members')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Whether the user is a member of some workspace of the organization; of a live one only
 * unless `includeDeleted`.
 */
export async function isMemberOfAnyWorkspaceOf(
  db: Queryable,
  orgId: string,
  userId: string,
  options: { includeDeleted?: boolean } = {},
): Promise<boolean> {
  let query = db
    .selectFrom('workspace_members')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
    .select('workspace_members.user_id')
    .where('workspaces.org_id', '=', orgId)
    .where('workspace_members.user_id', '=', userId);
  if (!options.includeDeleted) query = query.where('workspaces.deleted_at', 'is', null);
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * The user's role in the workspace: a Super Admin of its organization is `superadmin`
 * there (and the workspace's own membership is not read), otherwise the role stored for
 * the workspace, or undefined.
 */
export async function findStoredWorkspaceRole(
  db: Queryable,
  workspace: { id: string; org_id: string },
  userId: string,
): Promise<StoredWorkspaceRole | undefined> {
  if ((await findOrgRole(db, workspace.org_id, userId)) === 'superadmin') {
    return { role: 'superadmin', viaOrg: true };
  }
  const role = await findWorkspaceRole(db, workspace.id, userId);
  return role === undefined ? undefined : { role, viaOrg: false };
}

/** Whether the user holds one of `roles` in a live workspace (of organization `onlyOrg` when given). */
export async function holdsWorkspaceRole(
  db: Queryable,
  userId: string,
  roles: readonly string[],
  onlyOrg?: string,
): Promise<boolean> {
  if (roles.length === 0) return false;
  let query = db
    .selectFrom('workspace_members')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
    .select('workspaces.id')
    .where('workspace_members.user_id', '=', userId)
    .where('workspace_members.role', 'in', roles)
    .where('workspaces.deleted_at', 'is', null);
  if (onlyOrg) query = query.where('workspaces.org_id', '=', onlyOrg);
  return (await query.executeTakeFirst()) !== undefined;
}
