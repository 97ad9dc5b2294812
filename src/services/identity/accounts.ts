import { ulid } from 'ulid';
import { insertOrg, insertOrgMember, listOrgHandlesLike } from '../../store/repositories/orgs.js';
import type { Queryable } from '../../store/repositories/queryable.js';
import { anyUserExists, insertUser, listUserHandlesLike } from '../../store/repositories/users.js';
import type { UserRow } from '../../store/schema.js';

/** Emails are compared and stored trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** A handle candidate from an email's local part: lowercase letters, digits and dashes. */
export function handleFromEmail(email: string): string {
  const local = email.split('@')[0] ?? '';
  const handle = local
    .toLowerCase()
    .replace(/\+.*$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32);
  return handle || 'user';
}

/** `base`, or `base-2`, `base-3`… whichever is free in `table`'s handle column. */
export async function uniqueHandle(db: Queryable, table: 'users' | 'orgs', base: string): Promise<string> {
  const taken = new Set(
    table === 'users' ? await listUserHandlesLike(db, base) : await listOrgHandlesLike(db, base),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export interface NewAccount {
  name: string;
  email: string;
  passwordHash: string | null;
  now: string;
  /** False for a registration through an older layout that asked for no terms. */
  termsAccepted?: boolean;
}

/**
 * Creates a user and the organization they own (they are its Super Admin).
 * The first user of the instance becomes its platform owner. Runs inside the
 * caller's transaction so a failed registration leaves nothing behind.
 */
export async function createAccount(
  trx: Queryable,
  input: NewAccount,
): Promise<{ user: UserRow; orgId: string; orgHandle: string }> {
  const email = normalizeEmail(input.email);
  const anyone = await anyUserExists(trx);
  const base = handleFromEmail(email);
  const user: UserRow = {
    id: ulid(),
    email,
    name: input.name.trim(),
    handle: await uniqueHandle(trx, 'users', base),
    password_hash: input.passwordHash,
    is_platform_owner: anyone ? 0 : 1,
    session_epoch: 0,
    failed_logins: 0,
    locked_until: null,
    deleted_at: null,
    created_at: input.now,
    updated_at: input.now,
    terms_accepted: input.termsAccepted === false ? 0 : 1,
  };
  await insertUser(trx, user);
  const orgId = ulid();
  const orgHandle = await uniqueHandle(trx, 'orgs', base);
  await insertOrg(trx, {
    id: orgId,
    handle: orgHandle,
    name: `${user.name}'s organization`,
    plan: 'free',
    created_at: input.now,
  });
  await insertOrgMember(trx, { org_id: orgId, user_id: user.id, role: 'superadmin', created_at: input.now });
  return { user, orgId, orgHandle };
}
