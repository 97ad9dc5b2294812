/** What the app's screens share beside the contract's records: roles, lists and themes. */
import type { WorkspaceSettings } from '../../../src/contract/settings';
import type { Workspace } from '../../../src/contract/workspaces';
import type { Role } from '../../../src/domain/policy';

export type { Role, Workspace };

export interface List<T> {
  data: T[];
  next_cursor: string | null;
}

/** Roles that may change pages. */
export const canEdit = (role: Role | undefined): boolean =>
  role === 'editor' || role === 'admin' || role === 'superadmin';

/** Roles that may administer a workspace: settings, members, sharing. */
export const canAdminister = (role: Role | undefined): boolean => role === 'admin' || role === 'superadmin';

/** How each role is named on screen. */
export const ROLE_NAMES: Readonly<Record<Role, string>> = {
  viewer: 'Viewer',
  commenter: 'Commenter',
  editor: 'Editor',
  admin: 'Admin',
  superadmin: 'Super Admin',
};

/** The published site's themes, in the order the settings offer them; each one the contract's. */
export const THEMES = [
  'default',
  'dark',
  'forest',
  'rose',
  'amber',
  'minimal',
  'corporate',
] as const satisfies readonly WorkspaceSettings['theme'][];

/** Roles that may add comments and edit or delete their own. */
export const canComment = (role: Role | undefined): boolean => role !== undefined && role !== 'viewer';
