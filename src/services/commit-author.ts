import { type Actor, isSystem } from '../domain/actor.js';
import type { Queryable } from '../store/repositories/queryable.js';
import { type CommitAuthor, findCommitAuthor } from '../store/repositories/users.js';

/**
 * How a git commit made for `actor` names its author; undefined for the system actor
 * (Folio's own identity) and for a user who no longer exists. The name and email the
 * authenticator read with the user row are used as they are, so the users table is asked
 * only for an actor built without them.
 */
export async function commitAuthorOf(db: Queryable, actor: Actor): Promise<CommitAuthor | undefined> {
  if (isSystem(actor)) return undefined;
  if (actor.displayName !== undefined && actor.email !== undefined) {
    return { name: actor.displayName, email: actor.email };
  }
  return findCommitAuthor(db, actor.userId);
}
