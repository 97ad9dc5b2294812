import { AppError } from '../errors.js';
import type { Actor, ApiKeyScope } from './actor.js';

/** The API's roles, weakest first. */
export const ROLES = ['viewer', 'commenter', 'editor', 'admin', 'superadmin'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);

export const roleRank = (role: Role): number => ROLES.indexOf(role);

/** True when `role` carries at least the rights of `needed`. */
export const atLeast = (role: Role, needed: Role): boolean => roleRank(role) >= roleRank(needed);

/**
 * What a request does, in the API's terms for API-key scopes: `read` is a
 * GET, `write` a POST/PUT/PATCH, `delete` a DELETE.
 */
export type Operation = 'read' | 'write' | 'delete';

/** The rights an action needs: a minimum workspace role and the kind of operation. */
export interface Requirement {
  role: Role;
  op: Operation;
}

/** The roles' matrix, named by what the caller is doing. */
export const CAN = {
  read: { role: 'viewer', op: 'read' },
  comment: { role: 'commenter', op: 'write' },
  deleteOwnComment: { role: 'commenter', op: 'delete' },
  edit: { role: 'editor', op: 'write' },
  deletePage: { role: 'editor', op: 'delete' },
  administer: { role: 'admin', op: 'write' },
  administerDelete: { role: 'admin', op: 'delete' },
  readAdmin: { role: 'admin', op: 'read' },
  manageWorkspaces: { role: 'superadmin', op: 'write' },
  deleteWorkspace: { role: 'superadmin', op: 'delete' },
} as const satisfies Record<string, Requirement>;

/** Whether an API key's scopes allow an operation; a session has no scope limit. */
export function scopesAllow(scopes: readonly ApiKeyScope[] | null, op: Operation): boolean {
  if (scopes === null || scopes.includes('admin')) return true;
  if (op === 'read')
    return scopes.some((s) => s === 'read' || s === 'write' || s === 'delete' || s === 'admin:read');
  return scopes.includes(op);
}

/**
 * Decides whether `actor`, holding `role` in a workspace (null: no access at
 * all), may do what `need` describes. No read access is NOT_FOUND, so a
 * workspace's existence never leaks; read access without the role, or a key
 * without the scope, is FORBIDDEN. A scope never exceeds the role.
 */
export function authorize(actor: Actor, role: Role | null, need: Requirement): void {
  if (actor.via === 'system') return;
  if (role === null) throw new AppError('NOT_FOUND', 'Workspace not found');
  if (!atLeast(role, need.role)) {
    throw new AppError('FORBIDDEN', `This needs the ${need.role} role; you are ${role}`);
  }
  if (!scopesAllow(actor.scopes, need.op)) {
    throw new AppError('FORBIDDEN', `This API key lacks the ${need.op} scope`);
  }
}

/** The same scope check for requests that touch no workspace (API keys, sessions, profile). */
export function requireScope(actor: Actor, op: Operation): void {
  if (!scopesAllow(actor.scopes, op)) throw new AppError('FORBIDDEN', `This API key lacks the ${op} scope`);
}

/**
 * `/metrics`: the platform owner, in a session or with an `admin` or
 * `admin:read` API key. Anyone else signed in is FORBIDDEN.
 */
export function requireMetricsReader(actor: Actor): void {
  if (actor.via === 'system') return;
  const scoped = actor.scopes === null || actor.scopes.some((s) => s === 'admin' || s === 'admin:read');
  if (!actor.isPlatformOwner) throw new AppError('FORBIDDEN', 'Only the platform owner can read metrics');
  if (!scoped) throw new AppError('FORBIDDEN', 'This API key needs the admin or admin:read scope');
}
