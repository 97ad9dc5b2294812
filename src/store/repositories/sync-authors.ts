import type { Queryable } from './queryable.js';

/** The name and email a git commit made for this user is authored with; undefined for no such user. */
export function findCommitIdentity(
  db: Queryable,
  userId: string,
): Promise<{ name: string; email: string } | undefined> {
  return db.selectFrom('users').select(['name', 'email']).where('id', '=', userId).executeTakeFirst();
}
