import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import {
  SEEDED_AT as AT,
  seedOrg,
  seedOrgMember,
  seedUser,
  seedWorkspace,
  seedWorkspaceMember,
} from '../../../test/helpers/seed-rows.js';
import * as exportRows from './org-export.js';

describeEachDatabase('organization export repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('reads the organization, its members and its live workspaces with their members', async () => {
    await seedOrg(db(), 'org-a', { handle: 'acme', name: 'Acme' });
    await seedOrg(db(), 'org-b');
    await seedUser(db(), 'u-2', { name: 'Bo' });
    await seedUser(db(), 'u-1', { name: 'Ada' });
    await seedOrgMember(db(), 'org-a', 'u-1', 'superadmin');
    await seedWorkspace(db(), 'ws-z', 'org-a', { slug: 'zeta' });
    await seedWorkspace(db(), 'ws-a', 'org-a', { slug: 'alpha' });
    await seedWorkspace(db(), 'ws-gone', 'org-a', { slug: 'gone', deletedAt: AT });
    await seedWorkspace(db(), 'ws-other', 'org-b');
    await seedWorkspaceMember(db(), 'ws-a', 'u-2', 'editor');
    await seedWorkspaceMember(db(), 'ws-a', 'u-1', 'admin');

    expect(await exportRows.findOrgForExport(db(), 'org-a')).toEqual({
      id: 'org-a',
      handle: 'acme',
      name: 'Acme',
      plan: 'free',
      created_at: AT,
    });
    expect(await exportRows.findOrgForExport(db(), 'org-x')).toBeUndefined();
    expect(await exportRows.listOrgMembersForExport(db(), 'org-a')).toEqual([
      {
        id: 'u-1',
        name: 'Ada',
        email: 'u-1@example.test',
        handle: 'u-1',
        role: 'superadmin',
        created_at: AT,
      },
    ]);
    const workspaces = await exportRows.listLiveWorkspacesForExport(db(), 'org-a');
    expect(workspaces.map((w) => w.slug)).toEqual(['alpha', 'zeta']);
    expect(workspaces[0]).toMatchObject({ id: 'ws-a', settings: '{}', git_branch: 'main' });
    expect((await exportRows.listWorkspaceMembersForExport(db(), 'ws-a')).map((m) => [m.id, m.role])).toEqual(
      [
        ['u-1', 'admin'],
        ['u-2', 'editor'],
      ],
    );
  });
});
