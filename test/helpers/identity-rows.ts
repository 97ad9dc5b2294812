import type { UserRow } from '../../src/store/schema.js';

/** The timestamp the identity repository tests write unless they need another. */
export const AT = '2026-01-02T03:04:05.000Z';

/** A complete `users` row for repository tests; `fields` override the defaults. */
export function userRow(id: string, fields: Partial<UserRow> = {}): UserRow {
  return {
    id,
    email: `${id}@example.com`,
    name: `User ${id}`,
    handle: id,
    password_hash: null,
    is_platform_owner: 0,
    session_epoch: 0,
    failed_logins: 0,
    locked_until: null,
    created_at: AT,
    updated_at: AT,
    deleted_at: null,
    terms_accepted: 1,
    ...fields,
  };
}
