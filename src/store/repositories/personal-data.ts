import type { Queryable } from './queryable.js';

/*
 * The reads of a GDPR export: everything Folio holds about one user, secrets left out (no
 * password hash, key hash, refresh token, passkey public key or invitation token).
 */

/** The profile columns of a user (never the password hash), or undefined. */
export async function findUserProfile(db: Queryable, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'handle', 'is_platform_owner', 'created_at', 'updated_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** The user's organizations with the role held in each, oldest membership first. */
export async function listOrgMembershipsOfUser(db: Queryable, userId: string) {
  return db
    .selectFrom('org_members')
    .innerJoin('orgs', 'orgs.id', 'org_members.org_id')
    .select(['orgs.handle', 'orgs.name', 'org_members.role', 'org_members.created_at'])
    .where('org_members.user_id', '=', userId)
    .orderBy('org_members.created_at')
    .execute();
}

/** The user's workspaces (slug, name, organization handle) with the role held in each. */
export async function listWorkspaceMembershipsOfUser(db: Queryable, userId: string) {
  return db
    .selectFrom('workspace_members')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
    .innerJoin('orgs', 'orgs.id', 'workspaces.org_id')
    .select([
      'workspaces.slug',
      'workspaces.name',
      'orgs.handle as org',
      'workspace_members.role',
      'workspace_members.created_at',
    ])
    .where('workspace_members.user_id', '=', userId)
    .orderBy('workspace_members.created_at')
    .execute();
}

/** The user's sessions: device, address and times, oldest first. */
export async function listSessionsOfUser(db: Queryable, userId: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'device', 'ip', 'created_at', 'last_active_at', 'expires_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

/** The user's API keys without their hashes: name, prefix, scopes (JSON), organization and times. */
export async function listApiKeysOfUser(db: Queryable, userId: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('orgs', 'orgs.id', 'api_keys.org_id')
    .select([
      'api_keys.id',
      'api_keys.name',
      'api_keys.prefix',
      'api_keys.scopes',
      'orgs.handle as org',
      'api_keys.expires_at',
      'api_keys.last_used_at',
      'api_keys.created_at',
    ])
    .where('api_keys.user_id', '=', userId)
    .orderBy('api_keys.created_at')
    .execute();
}

/** The user's passkeys without their public keys. */
export async function listPasskeysOfUser(db: Queryable, userId: string) {
  return db
    .selectFrom('passkey_credentials')
    .select(['id', 'name', 'device_type', 'backed_up', 'transports', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

/** The sign-in identities (Google, GitHub, OIDC) linked to the user. */
export async function listIdentitiesOfUser(db: Queryable, userId: string) {
  return db
    .selectFrom('user_identities')
    .select(['id', 'provider', 'email', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

/** Comments the user wrote, with their workspace slug and page path. */
export async function listCommentsByUser(db: Queryable, userId: string) {
  return db
    .selectFrom('comments')
    .innerJoin('workspaces', 'workspaces.id', 'comments.workspace_id')
    .leftJoin('pages', 'pages.id', 'comments.page_id')
    .select([
      'comments.id',
      'workspaces.slug as workspace',
      'pages.path as page',
      'comments.parent_id',
      'comments.body',
      'comments.resolved',
      'comments.created_at',
      'comments.updated_at',
    ])
    .where('comments.author_id', '=', userId)
    .orderBy('comments.created_at')
    .execute();
}

/** Activity the user caused, with its workspace slug, in the order it happened. */
export async function listActivityByUser(db: Queryable, userId: string) {
  return db
    .selectFrom('activity')
    .innerJoin('workspaces', 'workspaces.id', 'activity.workspace_id')
    .select([
      'activity.id',
      'workspaces.slug as workspace',
      'activity.action',
      'activity.path',
      'activity.details',
      'activity.created_at',
    ])
    .where('activity.actor_id', '=', userId)
    .orderBy('activity.id')
    .execute();
}

/** Invitations the user sent, without their tokens. */
export async function listInvitationsSentByUser(db: Queryable, userId: string) {
  return db
    .selectFrom('invitations')
    .innerJoin('workspaces', 'workspaces.id', 'invitations.workspace_id')
    .select([
      'invitations.id',
      'workspaces.slug as workspace',
      'invitations.email',
      'invitations.role',
      'invitations.created_at',
      'invitations.expires_at',
      'invitations.accepted_at',
      'invitations.revoked_at',
    ])
    .where('invitations.invited_by', '=', userId)
    .orderBy('invitations.created_at')
    .execute();
}

/** The user's onboarding checklist state, or undefined. */
export async function findOnboardingOfUser(db: Queryable, userId: string) {
  return db
    .selectFrom('user_onboarding')
    .select(['steps', 'dismissed', 'updated_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/*
 * Account deletion: what decides whether it may happen, and the erasure itself.
 */

/** Whether the organization has a Super Admin other than `userId`. */
export async function hasOtherSuperAdmin(db: Queryable, orgId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('org_members')
    .select('user_id')
    .where('org_id', '=', orgId)
    .where('role', '=', 'superadmin')
    .where('user_id', '!=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * How many people other than `userId` work in the organization: its members and the
 * members of its live workspaces, each counted once.
 */
export async function countOtherPeopleInOrg(db: Queryable, orgId: string, userId: string): Promise<number> {
  const orgPeople = await db
    .selectFrom('org_members')
    .select('user_id')
    .where('org_id', '=', orgId)
    .where('user_id', '!=', userId)
    .execute();
  const workspacePeople = await db
    .selectFrom('workspace_members')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
    .select('workspace_members.user_id')
    .where('workspaces.org_id', '=', orgId)
    .where('workspaces.deleted_at', 'is', null)
    .where('workspace_members.user_id', '!=', userId)
    .execute();
  return new Set([...orgPeople, ...workspacePeople].map((r) => r.user_id)).size;
}

/** The tables keyed by `user_id` whose rows are personal and go with the account. */
const PERSONAL_TABLES = [
  'refresh_tokens',
  'sessions',
  'api_keys',
  'passkey_credentials',
  'passkey_challenges',
  'user_identities',
  'reset_tokens',
  'user_onboarding',
  'auth_claims',
  'org_members',
  'workspace_members',
] as const;

/**
 * Deletes the user's personal rows: credentials, sessions, identities, onboarding and
 * memberships, unsent mail to `email` and open invitations to it. Run it in the
 * transaction that also anonymizes the user row.
 */
export async function deletePersonalRowsOfUser(db: Queryable, userId: string, email: string): Promise<void> {
  for (const table of PERSONAL_TABLES) {
    await db.deleteFrom(table).where('user_id', '=', userId).execute();
  }
  await db.deleteFrom('outbox').where('to_address', '=', email).where('sent_at', 'is', null).execute();
  await db.deleteFrom('invitations').where('email', '=', email).where('accepted_at', 'is', null).execute();
}

/**
 * Replaces the user row's personal data with placeholders, drops the password, and bumps
 * the session epoch so no access token issued before still works; the row stays so what
 * the user authored keeps an author.
 */
export async function anonymizeUser(
  db: Queryable,
  userId: string,
  placeholder: { name: string; email: string; handle: string },
  at: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({
      name: placeholder.name,
      email: placeholder.email,
      handle: placeholder.handle,
      password_hash: null,
      failed_logins: 0,
      locked_until: null,
      session_epoch: eb('session_epoch', '+', 1),
      deleted_at: at,
      updated_at: at,
    }))
    .where('id', '=', userId)
    .execute();
}
