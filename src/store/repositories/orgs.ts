import type { Insertable, Selectable } from 'kysely';
import type { OrgMembersTable, OrgsTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * The `orgs` table and `org_members`, the memberships in organizations. An organization
 * role is `superadmin` (Super Admin of every workspace of the organization) or `member`.
 */

export type OrgRow = Selectable<OrgsTable>;
export type NewOrg = Insertable<OrgsTable>;
export type OrgMemberRow = Selectable<OrgMembersTable>;

/** A user with their role in an organization and when they joined it. */
export interface OrgMemberUser {
  user_id: string;
  name: string;
  email: string;
  handle: string;
  role: string;
  joined_at: string;
}

/** An organization a user belongs to, with their role in it. */
export interface MembershipWithOrg {
  id: string;
  handle: string;
  name: string;
  role: string;
  joined_at: string;
}

/** An organization by id. */
export function findOrgById(db: Queryable, id: string): Promise<OrgRow | undefined> {
  return db.selectFrom('orgs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The organization's handle, or undefined when there is no such organization. */
export async function findOrgHandle(db: Queryable, orgId: string): Promise<string | undefined> {
  const row = await db.selectFrom('orgs').select('handle').where('id', '=', orgId).executeTakeFirst();
  return row?.handle;
}

/** An organization by handle. */
export function findOrgByHandle(db: Queryable, handle: string): Promise<OrgRow | undefined> {
  return db.selectFrom('orgs').selectAll().where('handle', '=', handle).executeTakeFirst();
}

/** The organization handles that are `base` or start with `base-`. */
export async function listOrgHandlesLike(db: Queryable, base: string): Promise<string[]> {
  const rows = await db
    .selectFrom('orgs')
    .select('handle')
    .where((eb) => eb.or([eb('handle', '=', base), eb('handle', 'like', `${base}-%`)]))
    .execute();
  return rows.map((r) => r.handle);
}

/** Adds an organization row. */
export async function insertOrg(db: Queryable, row: NewOrg): Promise<void> {
  await db.insertInto('orgs').values(row).execute();
}

/** Deletes these organizations (their memberships must be gone already). */
export async function deleteOrgs(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('orgs').where('id', 'in', ids).execute();
}

/**
 * Writes the organization row without changing it. Inside a transaction this takes a write
 * lock on the row (PostgreSQL) or on the database (SQLite), so two transactions that each
 * check "another Super Admin remains" run one after the other.
 */
export async function lockOrg(db: Queryable, id: string): Promise<void> {
  await db
    .updateTable('orgs')
    .set((eb) => ({ plan: eb.ref('plan') }))
    .where('id', '=', id)
    .execute();
}

/** Ids of the organizations other than `except` that have no member at all. */
export async function listMemberlessOrgIds(db: Queryable, except: string): Promise<string[]> {
  const rows = await db
    .selectFrom('orgs')
    .select('id')
    .where('id', '!=', except)
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

/** Whether the organization has at least one member. */
export async function hasOrgMembers(db: Queryable, orgId: string): Promise<boolean> {
  const row = await db
    .selectFrom('org_members')
    .select('user_id')
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return row !== undefined;
}

/** A user's membership of an organization. */
export function findOrgMembership(
  db: Queryable,
  orgId: string,
  userId: string,
): Promise<OrgMemberRow | undefined> {
  return db
    .selectFrom('org_members')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** A user's role in an organization, or undefined when they are not a member. */
export async function findOrgRole(db: Queryable, orgId: string, userId: string): Promise<string | undefined> {
  return (await findOrgMembership(db, orgId, userId))?.role;
}

/**
 * The organizations a user belongs to, oldest membership first; only those where they
 * hold `role`, and only `orgId`, when given.
 */
export function listMembershipsOfUser(
  db: Queryable,
  userId: string,
  options: { role?: string; orgId?: string } = {},
): Promise<MembershipWithOrg[]> {
  let query = db
    .selectFrom('org_members')
    .innerJoin('orgs', 'orgs.id', 'org_members.org_id')
    .select([
      'orgs.id',
      'orgs.handle',
      'orgs.name',
      'org_members.role',
      'org_members.created_at as joined_at',
    ])
    .where('org_members.user_id', '=', userId);
  if (options.role !== undefined) query = query.where('org_members.role', '=', options.role);
  if (options.orgId !== undefined) query = query.where('org_members.org_id', '=', options.orgId);
  return query.orderBy('org_members.created_at').orderBy('org_members.org_id').execute();
}

/**
 * The organization a user signs in to: the first they are Super Admin of (their own),
 * else the first they joined.
 */
export async function findHomeOrgId(db: Queryable, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('org_members')
    .select('org_id')
    .where('user_id', '=', userId)
    .orderBy((eb) => eb.case().when('role', '=', 'superadmin').then(0).else(1).end())
    .orderBy('created_at')
    .executeTakeFirst();
  return row?.org_id;
}

/** The members of an organization with their user record, oldest first; only those holding `role` when given. */
export function listOrgMemberUsers(
  db: Queryable,
  orgId: string,
  options: { role?: string } = {},
): Promise<OrgMemberUser[]> {
  let query = db
    .selectFrom('org_members')
    .innerJoin('users', 'users.id', 'org_members.user_id')
    .select([
      'users.id as user_id',
      'users.name',
      'users.email',
      'users.handle',
      'org_members.role',
      'org_members.created_at as joined_at',
    ])
    .where('org_members.org_id', '=', orgId);
  if (options.role !== undefined) query = query.where('org_members.role', '=', options.role);
  return query.orderBy('org_members.created_at').orderBy('org_members.user_id').execute();
}

/** How many Super Admins the organization has. */
export async function countOrgSuperadmins(db: Queryable, orgId: string): Promise<number> {
  const row = await db
    .selectFrom('org_members')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('org_id', '=', orgId)
    .where('role', '=', 'superadmin')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The organization of the platform owner (the first user), once that user exists. */
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

/** Adds a membership; the user must not be a member already. */
export async function insertOrgMember(db: Queryable, row: OrgMemberRow): Promise<void> {
  await db.insertInto('org_members').values(row).execute();
}

/** Makes the user a member with `row.role`, or gives an existing member that role (keeping when they joined). */
export async function upsertOrgMember(db: Queryable, row: OrgMemberRow): Promise<void> {
  await db
    .insertInto('org_members')
    .values(row)
    .onConflict((oc) => oc.columns(['org_id', 'user_id']).doUpdateSet({ role: row.role }))
    .execute();
}

/** Changes an existing member's role. */
export async function updateOrgMemberRole(
  db: Queryable,
  orgId: string,
  userId: string,
  role: string,
): Promise<void> {
  await db
    .updateTable('org_members')
    .set({ role })
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .execute();
}
