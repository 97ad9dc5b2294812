import type { Kysely } from 'kysely';
import type { Actor } from '../domain/actor.js';
import { forbidden, notFound } from '../errors.js';
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
  const membership = await db
    .selectFrom('org_members')
    .select('role')
    .where('org_id', '=', orgId)
    .where('user_id', '=', actor.userId)
    .executeTakeFirst();
  if (membership?.role === 'superadmin') return;
  const inWorkspace = await db
    .selectFrom('workspace_members')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
    .select('workspace_members.user_id')
    .where('workspaces.org_id', '=', orgId)
    .where('workspace_members.user_id', '=', actor.userId)
    .executeTakeFirst();
  if (!membership && !inWorkspace) throw notFound('Organization');
  throw forbidden(refusal);
}
