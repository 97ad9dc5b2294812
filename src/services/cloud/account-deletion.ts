import type { Kysely } from 'kysely';
import { AppError, notFound } from '../../errors.js';
import { listMembershipsOfUser } from '../../store/repositories/orgs.js';
import * as personal from '../../store/repositories/personal-data.js';
import type { Queryable } from '../../store/repositories/queryable.js';
import type { Database } from '../../store/schema.js';
import { findUserById } from '../../store/repositories/users.js';

/** What a deleted account is called wherever its pages, comments and activity still name it. */
export const DELETED_USER_NAME = 'Deleted user';

/** An organization the user is the last Super Admin of while others still work in it. */
interface Blocker {
  handle: string;
  name: string;
  members: number;
}

/** The organizations a deletion would leave without a Super Admin although people still work in them. */
async function orphanedOrganizations(db: Queryable, userId: string): Promise<Blocker[]> {
  const owned = await listMembershipsOfUser(db, userId, { role: 'superadmin' });
  const blockers: Blocker[] = [];
  for (const org of owned) {
    if (await personal.hasOtherSuperAdmin(db, org.id, userId)) continue;
    const members = await personal.countOtherPeopleInOrg(db, org.id, userId);
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
  const user = await findUserById(db, userId);
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
    await personal.deletePersonalRowsOfUser(trx, userId, user.email);
    await personal.anonymizeUser(
      trx,
      userId,
      { name: DELETED_USER_NAME, email: `${placeholder}@deleted.invalid`, handle: placeholder },
      now,
    );
  });
}
