import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { SEEDED_AT, seedUsers, seedWorkspaces } from '../../../test/helpers/seed-rows.js';
import { holdsWorkspaceRole, isOrgSuperadmin } from './ai-access.js';

const EDITING = ['editor', 'admin', 'superadmin'];

describeEachDatabase('AI access on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('tells an organization’s Super Admin, within one organization when asked', async () => {
    await seedUsers(db(), ['owner', 'writer', 'reader', 'gone-editor']);
    await seedWorkspaces(db(), ['ws-a', 'ws-gone']);
    await db()
      .insertInto('orgs')
      .values({ id: 'org-b', handle: 'beta', name: 'Beta', plan: 'free', created_at: SEEDED_AT })
      .execute();
    await db()
      .insertInto('org_members')
      .values([
        { org_id: 'org-a', user_id: 'owner', role: 'superadmin', created_at: SEEDED_AT },
        { org_id: 'org-a', user_id: 'writer', role: 'member', created_at: SEEDED_AT },
      ])
      .execute();
    expect(await isOrgSuperadmin(db(), 'owner')).toBe(true);
    expect(await isOrgSuperadmin(db(), 'owner', 'org-a')).toBe(true);
    expect(await isOrgSuperadmin(db(), 'owner', 'org-b')).toBe(false);
    expect(await isOrgSuperadmin(db(), 'writer')).toBe(false);
  });

  it('tells a member holding an editing role in a live workspace', async () => {
    await db().updateTable('workspaces').set({ deleted_at: SEEDED_AT }).where('id', '=', 'ws-gone').execute();
    await db()
      .insertInto('workspace_members')
      .values([
        { workspace_id: 'ws-a', user_id: 'writer', role: 'editor', created_at: SEEDED_AT },
        { workspace_id: 'ws-a', user_id: 'reader', role: 'viewer', created_at: SEEDED_AT },
        { workspace_id: 'ws-gone', user_id: 'gone-editor', role: 'editor', created_at: SEEDED_AT },
      ])
      .execute();
    expect(await holdsWorkspaceRole(db(), 'writer', EDITING)).toBe(true);
    expect(await holdsWorkspaceRole(db(), 'writer', EDITING, 'org-a')).toBe(true);
    expect(await holdsWorkspaceRole(db(), 'writer', EDITING, 'org-b')).toBe(false);
    expect(await holdsWorkspaceRole(db(), 'reader', EDITING)).toBe(false);
    expect(await holdsWorkspaceRole(db(), 'gone-editor', EDITING)).toBe(false);
    expect(await holdsWorkspaceRole(db(), 'writer', [])).toBe(false);
  });
});
