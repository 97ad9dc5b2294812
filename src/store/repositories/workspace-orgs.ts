import type { Queryable } from './queryable.js';

/*
 * What the workspaces capability reads of organizations and memberships (`orgs`,
 * `org_members`, `workspace_members`, `users`): handles for a workspace's metadata and
 * listing, who is Super Admin, and the organizations a first registration adopts.
 */

/** The organization's handle, or undefined when there is no such organization. */
export async function findOrgHandle(db: Queryable, orgId: string): Promise<string | undefined> {
  const row = await db.selectFrom('orgs').select('handle').where('id', '=', orgId).executeTakeFirst();
  return row?.handle;
}

/** An organization's id and handle, by id or by handle. */
export function findOrg(
  db: Queryable,
  by: { id: string } | { handle: string },
): Promise<{ id: string; handle: string } | undefined> {
  const query = db.selectFrom('orgs').select(['id', 'handle']);
  return (
    'id' in by ? query.where('id', '=', by.id) : query.where('handle', '=', by.handle)
  ).executeTakeFirst();
}

/** The user's role in the organization, or undefined when they are not a member. */
export async function findOrgRole(db: Queryable, orgId: string, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('org_members')
    .select('role')
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

/** Ids of the organizations where the user is Super Admin. */
export async function listSuperadminOrgIds(db: Queryable, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('org_members')
    .select('org_id')
    .where('user_id', '=', userId)
    .where('role', '=', 'superadmin')
    .execute();
  return rows.map((r) => r.org_id);
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

/** Whether the user is the instance's platform owner. */
export async function isPlatformOwner(db: Queryable, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('is_platform_owner')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.is_platform_owner === 1;
}

/** The organization of the platform owner (the first user, Super Admin there), if that user exists. */
export function findPlatformOwnerOrg(db: Queryable): Promise<{ id: string; handle: string } | undefined> {
  return db
    .selectFrom('org_members')
    .innerJoin('users', 'users.id', 'org_members.user_id')
    .innerJoin('orgs', 'orgs.id', 'org_members.org_id')
    .select(['orgs.id', 'orgs.handle'])
    .where('users.is_platform_owner', '=', 1)
    .where('org_members.role', '=', 'superadmin')
    .orderBy('org_members.created_at')
    .executeTakeFirst();
}

/** Ids of the organizations without a single member, but `exceptOrgId`. */
export async function listOrgIdsWithoutMembers(db: Queryable, exceptOrgId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('orgs')
    .select('id')
    .where('id', '!=', exceptOrgId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('org_members')
            .select('org_members.user_id')
            .whereRef('org_members.org_id', '=', 'orgs.id'),
        ),
      ),
    )
    .execute();
  return rows.map((r) => r.id);
}

/** Deletes organizations (callers first move away what points at them). */
export async function deleteOrgs(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('orgs').where('id', 'in', ids).execute();
}

/** Whether an organization with this id exists. */
export async function orgExists(db: Queryable, orgId: string): Promise<boolean> {
  return (await db.selectFrom('orgs').select('id').where('id', '=', orgId).executeTakeFirst()) !== undefined;
}

/** Whether the organization has at least one member. */
export async function orgHasMembers(db: Queryable, orgId: string): Promise<boolean> {
  const row = await db
    .selectFrom('org_members')
    .select('user_id')
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Adds an organization without members on the free plan, named after its handle: the
 * placeholder that holds restored workspaces until the first registration adopts them.
 */
export async function insertPlaceholderOrg(
  db: Queryable,
  org: { id: string; handle: string; at: string },
): Promise<void> {
  await db
    .insertInto('orgs')
    .values({ id: org.id, handle: org.handle, name: org.handle, plan: 'free', created_at: org.at })
    .execute();
}
