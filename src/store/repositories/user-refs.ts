import type { Queryable } from './queryable.js';

/*
 * Small reads of `users` for the features that show or act as a user without managing
 * accounts: the author of a sync commit, the authors of a page's history, the user a
 * command of the CLI acts as.
 */

/** The name and email a git commit made for this user is authored with; undefined for no such user. */
export function findCommitIdentity(
  db: Queryable,
  userId: string,
): Promise<{ name: string; email: string } | undefined> {
  return db.selectFrom('users').select(['name', 'email']).where('id', '=', userId).executeTakeFirst();
}

/** The users with these emails (exactly as stored), with their id and handle. */
export async function listUsersByEmails(
  db: Queryable,
  emails: readonly string[],
): Promise<Array<{ id: string; email: string; handle: string }>> {
  if (emails.length === 0) return [];
  return db.selectFrom('users').select(['id', 'email', 'handle']).where('email', 'in', emails).execute();
}

/** The account (not deleted) with this email, as an actor needs it; emails are stored lower-cased. */
export function findLiveUserByEmail(
  db: Queryable,
  email: string,
): Promise<{ id: string; is_platform_owner: 0 | 1 } | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'is_platform_owner'])
    .where('email', '=', email)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
