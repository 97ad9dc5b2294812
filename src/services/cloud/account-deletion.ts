import type { Kysely } from 'kysely';
import { AppError, notFound } from '../../errors.js';
import type { Database } from '../../store/schema.js';

/** What a deleted account is called wherever its pages, comments and activity still name it. */
export const DELETED_USER_NAME = 'Deleted user';

/** An organization the user is the last Super Admin of while others still work in it. */
interface Blocker {
  handle: string;
  name: string;
  members: number;
}

/** The organizations a deletion would leave without a Super Admin although people still work in them. */
async function orphanedOrganizations(db: Kysely<Database>, userId: string): Promise<Blocker[]> {
  const owned = await db
    .selectFrom('org_members')
    .innerJoin('orgs', 'orgs.id', 'org_members.org_id')
    .select(['orgs.id', 'orgs.handle', 'orgs.name'])
    .where('org_members.user_id', '=', userId)
    .where('org_members.role', '=', 'superadmin')
    .execute();
  const blockers: Blocker[] = [];
  for (const org of owned) {
    const otherAdmins = await db
      .selectFrom('org_members')
      .select('user_id')
      .where('org_id', '=', org.id)
      .where('role', '=', 'superadmin')
      .where('user_id', '!=', userId)
      .executeTakeFirst();
    if (otherAdmins) continue;
    const orgPeople = await db
      .selectFrom('org_members')
      .select('user_id')
      .where('org_id', '=', org.id)
      .where('user_id', '!=', userId)
      .execute();
    const workspacePeople = await db
      .selectFrom('workspace_members')
      .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
      .select('workspace_members.user_id')
      .where('workspaces.org_id', '=', org.id)
      .where('workspaces.deleted_at', 'is', null)
      .where('workspace_members.user_id', '!=', userId)
      .execute();
    const members = new Set([...orgPeople, ...workspacePeople].map((r) => r.user_id)).size;
    if (members > 0) blockers.push({ handle: org.handle, name: org.name, members });
  }
  return blockers;
}

/**
 * Removes a user's personal data in one transaction: sessions, refresh tokens, API keys,
 * passkeys, linked identities, reset tokens, onboarding, memberships, unsent mail to them
 * and pending invitations to their address. The user row stays, renamed "Deleted user" with
 * a placeholder email and no password, so the pages, comments and activity they authored
 * keep an author and stay with their organizations. Refuses (409) while the user is the
 * last Super Admin of an organization others still work in, and for the platform owner.
 */
export async function deleteAccountData(db: Kysely<Database>, userId: string, now: string): Promise<void> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'is_platform_owner', 'deleted_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user || user.deleted_at) throw notFound('User');
  if (user.is_platform_owner === 1) {
    throw new AppError('CONFLICT', "The platform owner's account cannot be deleted", {
      details: { reason: 'platform_owner' },
    });
  }
  const blockers = await orphanedOrganizations(db, userId);
  if (blockers.length > 0) {
    const names = blockers.map((b) => b.handle).join(', ');
    throw new AppError(
      'CONFLICT',
      `You are the last Super Admin of ${names}, where other people still work. Make one of them ` +
        'Super Admin (workspace settings, Members) or remove them, then delete your account.',
      { details: { reason: 'last_superadmin', organizations: blockers } },
    );
  }
  const placeholder = `deleted-${userId.toLowerCase()}`;
  await db.transaction().execute(async (trx) => {
    for (const table of [
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
    ] as const) {
      await trx.deleteFrom(table).where('user_id', '=', userId).execute();
    }
    await trx
      .deleteFrom('outbox')
      .where('to_address', '=', user.email)
      .where('sent_at', 'is', null)
      .execute();
    await trx
      .deleteFrom('invitations')
      .where('email', '=', user.email)
      .where('accepted_at', 'is', null)
      .execute();
    await trx
      .updateTable('users')
      .set((eb) => ({
        name: DELETED_USER_NAME,
        email: `${placeholder}@deleted.invalid`,
        handle: placeholder,
        password_hash: null,
        failed_logins: 0,
        locked_until: null,
        session_epoch: eb('session_epoch', '+', 1),
        deleted_at: now,
        updated_at: now,
      }))
      .where('id', '=', userId)
      .execute();
  });
}
