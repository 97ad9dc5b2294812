import type { Queryable } from './queryable.js';

/*
 * What the AI features ask of memberships: whether a user edits anywhere. Read from
 * `org_members` and `workspace_members` without changing them.
 */

/** Whether the user is Super Admin of an organization (of `onlyOrg` when given). */
export async function isOrgSuperadmin(db: Queryable, userId: string, onlyOrg?: string): Promise<boolean> {
  let query = db
    .selectFrom('org_members')
    .select('org_id')
    .where('user_id', '=', userId)
    .where('role', '=', 'superadmin');
  if (onlyOrg) query = query.where('org_id', '=', onlyOrg);
  return (await query.executeTakeFirst()) !== undefined;
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
