import type { Kysely } from 'kysely';
import type { Actor } from '../domain/actor.js';
import { forbidden, notFound } from '../errors.js';
import { findOrgRole } from '../store/repositories/orgs.js';
import { isMemberOfAnyWorkspaceOf } from '../store/repositories/workspace-members.js';
import type { Database } from '../store/schema.js';

/**
 * Lets only the organization's Super Admins through. Someone who works in the organization
 * (a member of it or of one of its workspaces) is refused with 403 and `refusal`; anyone
 * else gets 404, so the organization's existence does not leak.
 */
export async function requireOrgSuperAdmin(
  db: Kysely<Database>,
  actor: Actor,
  orgId: string,
  refusal: string,
): Promise<void> {
  const orgRole = await findOrgRole(db, orgId, actor.userId);
  if (orgRole === 'superadmin') return;
  const inWorkspace = await isMemberOfAnyWorkspaceOf(db, orgId, actor.userId, { includeDeleted: true });
  if (orgRole === undefined && !inWorkspace) throw notFound('Organization');
  throw forbidden(refusal);
}
