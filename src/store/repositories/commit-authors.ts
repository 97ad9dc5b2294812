import type { Queryable } from './queryable.js';

/** A user as a git commit names them: `Name <email>`. */
export interface CommitAuthor {
  name: string;
  email: string;
}

/** The name and email of user `userId`, or undefined when there is no such user. */
export function findCommitAuthor(db: Queryable, userId: string): Promise<CommitAuthor | undefined> {
  return db.selectFrom('users').select(['name', 'email']).where('id', '=', userId).executeTakeFirst();
}

/** The name and email of each of `userIds` that exists, with its id (in no particular order). */
export function findCommitAuthors(
  db: Queryable,
  userIds: readonly string[],
): Promise<Array<CommitAuthor & { id: string }>> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').select(['id', 'name', 'email']).where('id', 'in', userIds).execute();
}
