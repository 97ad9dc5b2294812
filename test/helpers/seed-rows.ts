import type { Kysely } from 'kysely';
import type { Database, PageRow, WorkspaceRow } from '../../src/store/schema.js';

/** The timestamp seeded rows are created at. */
export const SEEDED_AT = '2026-01-02T03:04:05.000Z';

/** Organization `org-a` and a live workspace per id in it, for repository tests that need rows to point at. */
export async function seedWorkspaces(
  db: Kysely<Database>,
  ids: readonly string[],
  fields: Partial<WorkspaceRow> = {},
): Promise<void> {
  await db
    .insertInto('orgs')
    .values({ id: 'org-a', handle: 'acme', name: 'Acme', plan: 'free', created_at: SEEDED_AT })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  for (const id of ids) {
    await db
      .insertInto('workspaces')
      .values({
        id,
        org_id: 'org-a',
        name: `Workspace ${id}`,
        slug: id,
        git_remote: null,
        git_branch: 'main',
        sync_status: 'idle',
        settings: '{}',
        webhook_secret: 'secret',
        deleted_at: null,
        created_at: SEEDED_AT,
        updated_at: SEEDED_AT,
        ...fields,
      })
      .execute();
  }
}

/** A user per id, named after it (`Name of u1`, `u1@example.com`). */
export async function seedUsers(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    await db
      .insertInto('users')
      .values({
        id,
        email: `${id}@example.com`,
        name: `Name of ${id}`,
        handle: id,
        password_hash: null,
        is_platform_owner: 0,
        session_epoch: 0,
        failed_logins: 0,
        locked_until: null,
        created_at: SEEDED_AT,
        updated_at: SEEDED_AT,
        deleted_at: null,
      })
      .execute();
  }
}

/** A page row of `workspaceId` at `path` (a draft, unrestricted), to insert with the pages repository. */
export function pageRowOf(
  id: string,
  workspaceId: string,
  path: string,
  fields: Partial<PageRow> = {},
): PageRow {
  return {
    id,
    workspace_id: workspaceId,
    path,
    title: `Title of ${path}`,
    description: '',
    tags: '[]',
    status: 'draft',
    sort_order: 0,
    content_hash: `hash-${id}`,
    frontmatter_hash: `fm-${id}`,
    frontmatter_error: null,
    restricted: 0,
    created_at: SEEDED_AT,
    updated_at: SEEDED_AT,
    updated_by: null,
    ...fields,
  };
}
