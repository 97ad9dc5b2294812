import type { UserRow, WorkspaceRow } from '../../src/store/schema.js';

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

/** A complete `workspaces` row for repository tests; `fields` override the defaults. */
export function workspaceRow(id: string, orgId: string, fields: Partial<WorkspaceRow> = {}): WorkspaceRow {
  return {
    id,
    org_id: orgId,
    name: `Workspace ${id}`,
    slug: id,
    git_remote: null,
    git_branch: 'main',
    sync_status: 'idle',
    settings: '{}',
    webhook_secret: 'secret',
    deleted_at: null,
    created_at: AT,
    updated_at: AT,
    ...fields,
  };
}
