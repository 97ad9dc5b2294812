import type { NewUser, UserRow } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * The `users` table. Emails are stored trimmed and lower-cased: callers pass them already
 * normalized (identity/accounts.ts `normalizeEmail`). A deleted account keeps its row
 * (`deleted_at` set, no personal data), so these functions see deleted users too.
 */

/** A user by id. */
export function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A user by their (normalized) email. */
export function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** A user by handle. */
export function findUserByHandle(db: Queryable, handle: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('handle', '=', handle).executeTakeFirst();
}

/** The users with these ids (in no particular order; unknown ids are left out). */
export async function listUsersByIds(db: Queryable, ids: readonly string[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
}

/** The users with these handles (in no particular order; unknown handles are left out). */
export async function listUsersByHandles(db: Queryable, handles: readonly string[]): Promise<UserRow[]> {
  if (handles.length === 0) return [];
  return db.selectFrom('users').selectAll().where('handle', 'in', handles).execute();
}

/** The display name of a user, or undefined when there is no such user. */
export async function findUserName(db: Queryable, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('name').where('id', '=', id).executeTakeFirst();
  return row?.name;
}

/** A user as a git commit names them: `Name <email>`. */
export interface CommitAuthor {
  name: string;
  email: string;
}

/** The name and email a git commit made for user `userId` is authored with; undefined for no such user. */
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

/** The users with these emails (exactly as stored), with their id and handle. */
export async function listUsersByEmails(
  db: Queryable,
  emails: readonly string[],
): Promise<Array<{ id: string; email: string; handle: string }>> {
  if (emails.length === 0) return [];
  return db.selectFrom('users').select(['id', 'email', 'handle']).where('email', 'in', emails).execute();
}

/** The account (not deleted) with this (normalized) email, as an actor needs it. */
export function findLiveUserByEmail(
  db: Queryable,
  email: string,
): Promise<{ id: string; name: string; email: string; is_platform_owner: 0 | 1 } | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'is_platform_owner'])
    .where('email', '=', email)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
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

/** Whether any account exists yet (the first one becomes the platform owner). */
export async function anyUserExists(db: Queryable): Promise<boolean> {
  return (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Whether an account holds this (normalized) email. */
export async function isEmailTaken(db: Queryable, email: string): Promise<boolean> {
  return (
    (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) !== undefined
  );
}

/** The user handles that are `base` or start with `base-`. */
export async function listUserHandlesLike(db: Queryable, base: string): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('handle')
    .where((eb) => eb.or([eb('handle', '=', base), eb('handle', 'like', `${base}-%`)]))
    .execute();
  return rows.map((r) => r.handle);
}

/** Adds a user row; a taken email or handle fails on the unique index. */
export async function insertUser(db: Queryable, row: NewUser): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

/** Sets the display name. */
export async function updateUserName(db: Queryable, id: string, name: string, at: string): Promise<void> {
  await db.updateTable('users').set({ name, updated_at: at }).where('id', '=', id).execute();
}

/** Sets a new password hash and clears the failed sign-ins and any lock with it. */
export async function updateUserPassword(
  db: Queryable,
  id: string,
  passwordHash: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, failed_logins: 0, locked_until: null, updated_at: at })
    .where('id', '=', id)
    .execute();
}

/** Stores the count of consecutive failed sign-ins and the lock they led to (null: none). */
export async function updateSignInFailures(
  db: Queryable,
  id: string,
  failures: { failed_logins: number; locked_until: string | null },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ failed_logins: failures.failed_logins, locked_until: failures.locked_until })
    .where('id', '=', id)
    .execute();
}

/**
 * Moves the user's session epoch on by one in a single statement (no read-modify-write
 * race), so every access token signed with the old epoch stops being accepted.
 */
export async function bumpSessionEpoch(db: Queryable, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ session_epoch: eb('session_epoch', '+', 1) }))
    .where('id', '=', id)
    .execute();
}
