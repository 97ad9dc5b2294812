import { findOrgRole } from './orgs.js';
import type { Queryable } from './queryable.js';
import { findWorkspaceRole } from './workspace-members.js';

/*
 * What deciding access to a workspace reads: the caller's stored roles and which
 * workspaces still exist.
 */

/** The stored role that gives a user their place in a workspace. */
export interface StoredWorkspaceRole {
  /** `superadmin` through the organization, or the role held in the workspace itself (unchecked). */
  role: string;
  /** True when the role comes from being a Super Admin of the workspace's organization. */
  viaOrg: boolean;
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

/** Those of `ids` that name live (not soft-deleted) workspaces. */
export async function listLiveWorkspaceIds(db: Queryable, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('workspaces')
    .select('id')
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((w) => w.id);
}
