import type { Actor } from '../domain/actor.js';
import { authorize, isRole, type Requirement, type Role } from '../domain/policy.js';
import { AppError } from '../errors.js';
import type { Store } from '../store/database.js';
import { findStoredWorkspaceRole } from '../store/repositories/workspace-members.js';
import { listLiveIdsAmong } from '../store/repositories/workspaces.js';
import * as workspacesTable from '../store/repositories/workspaces.js';
import type { WorkspaceRow } from '../store/schema.js';

export interface WorkspaceAccess {
  workspace: WorkspaceRow;
  role: Role;
}

/**
 * Finds live (not soft-deleted) workspaces by id or slug and works out the
 * caller's role in them. Every service that acts on a workspace starts here.
 */
export function createAccess(store: Store) {
  async function findWorkspace(idOrSlug: string): Promise<WorkspaceRow | undefined> {
    return workspacesTable.findLive(store.db, idOrSlug);
  }

  /**
   * The actor's role in a workspace, or null without access. An
   * organization's Super Admin is `superadmin` in all of its workspaces; an
   * API key reaches only workspaces of its own organization.
   */
  async function roleIn(actor: Actor, workspace: WorkspaceRow): Promise<Role | null> {
    if (actor.via === 'system') return 'superadmin';
    if (actor.via === 'api_key' && actor.orgId !== workspace.org_id) return null;
    const stored = await findStoredWorkspaceRole(store.db, workspace, actor.userId);
    return stored && isRole(stored.role) ? stored.role : null;
  }

  return {
    findWorkspace,
    roleIn,

    /** Those of the given workspace ids that still exist and are not deleted. */
    async liveWorkspaceIds(ids: readonly string[]): Promise<Set<string>> {
      return new Set(await listLiveIdsAmong(store.db, ids));
    },

    /**
     * Loads a workspace and checks the actor may do `need` there: NOT_FOUND
     * when it does not exist or the actor cannot read it, FORBIDDEN when it
     * can read but lacks the role or scope.
     */
    async require(actor: Actor, idOrSlug: string, need: Requirement): Promise<WorkspaceAccess> {
      const workspace = await findWorkspace(idOrSlug);
      if (!workspace) throw new AppError('NOT_FOUND', 'Workspace not found');
      const role = await roleIn(actor, workspace);
      authorize(actor, role, need);
      return { workspace, role: role ?? 'superadmin' };
    },
  };
}

export type AccessService = ReturnType<typeof createAccess>;
