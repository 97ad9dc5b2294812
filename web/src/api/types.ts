/** The shapes of the API answers the app reads (SPEC.md part 2, CONTRACT.md part 3). */
import type { WorkspaceSettings } from '../../../src/contract/settings';

export type Role = 'superadmin' | 'admin' | 'editor' | 'commenter' | 'viewer';

export interface User {
  id: string;
  name: string;
  email: string;
  handle?: string;
}

export interface Workspace {
  id: string;
  name: string;
  slug: string;
  role: Role;
  public_site?: boolean;
}

export interface List<T> {
  data: T[];
  next_cursor: string | null;
}

/** GET /api/auth/providers. */
export interface Providers {
  providers: { id: string; name: string }[];
  passkeys: boolean;
}

/** A stored passkey as the API shows it. */
export interface Passkey {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  device_type: string;
  backed_up: boolean;
}

/** An identity-provider account linked to the user. */
export interface LinkedIdentity {
  id: string;
  provider: string;
  email: string;
  created_at: string;
  last_used_at: string | null;
}

/** Roles that may change pages (CONTRACT.md part 2). */
export const canEdit = (role: Role | undefined): boolean =>
  role === 'editor' || role === 'admin' || role === 'superadmin';

/** Roles that may administer a workspace: settings, members, sharing (CONTRACT.md part 2). */
export const canAdminister = (role: Role | undefined): boolean => role === 'admin' || role === 'superadmin';

/** How each role is named on screen. */
export const ROLE_NAMES: Readonly<Record<Role, string>> = {
  viewer: 'Viewer',
  commenter: 'Commenter',
  editor: 'Editor',
  admin: 'Admin',
  superadmin: 'Super Admin',
};

/** A workspace member as the admin API lists them. */
export interface Member {
  user_id: string;
  name: string;
  email: string;
  handle: string;
  role: Role;
  joined_at: string;
}

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

/** Roles that may add comments and edit or delete their own (CONTRACT.md part 2: not viewers). */
export const canComment = (role: Role | undefined): boolean => role !== undefined && role !== 'viewer';

/** A pending invitation; `token` (and a link carrying it) only when no mail was sent. */
export interface Invitation {
  id: string;
  email: string;
  role: Role;
  expires_at: string;
  created_at: string;
  accept_url: string;
  token?: string;
}

/** A share link as admins see it; `url` only in the answer to create. */
export interface ShareLink {
  id: string;
  role: Role;
  expires_at: string | null;
  max_uses: number | null;
  uses: number;
  created_at: string;
  url?: string;
}

/** A workspace's custom domain and the DNS record that proves it is theirs. */
export interface CustomDomain {
  domain: string;
  status: 'pending' | 'verified';
  verification: { type: 'TXT'; name: string; value: string };
  verified_at: string | null;
}
