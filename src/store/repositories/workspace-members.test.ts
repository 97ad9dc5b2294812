import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { SEEDED_AT as AT, userRow, workspaceRow } from '../../../test/helpers/seed-rows.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { insertOrg, insertOrgMember } from './orgs.js';
import { insertUser } from './users.js';
import * as members from './workspace-members.js';
import * as workspaces from './workspaces.js';

const LATER = '2026-02-01T00:00:00.000Z';

describeEachDatabase('workspace members and access repositories on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('grants, changes and lists workspace roles, keeping when a member joined', async () => {
    await insertOrg(db(), { id: 'org-a', handle: 'acme', name: 'Acme', plan: 'free', created_at: AT });
    await insertOrg(db(), { id: 'org-b', handle: 'beta', name: 'Beta', plan: 'free', created_at: AT });
    await workspaces.insertRow(db(), workspaceRow('ws-1', 'org-a'));
    await workspaces.insertRow(db(), workspaceRow('ws-2', 'org-a'));
    await workspaces.insertRow(db(), workspaceRow('ws-gone', 'org-b', { deleted_at: AT }));
    for (const id of ['u-ada', 'u-bob', 'u-cy']) await insertUser(db(), userRow(id));

    await members.upsertWorkspaceMember(db(), {
      workspace_id: 'ws-1',
      user_id: 'u-bob',
      role: 'viewer',
      created_at: AT,
    });
    await members.upsertWorkspaceMember(db(), {
      workspace_id: 'ws-1',
      user_id: 'u-bob',
      role: 'editor',
      created_at: LATER,
    });
    await members.upsertWorkspaceMember(db(), {
      workspace_id: 'ws-1',
      user_id: 'u-cy',
      role: 'admin',
      created_at: LATER,
    });
    await members.upsertWorkspaceMember(db(), {
      workspace_id: 'ws-gone',
      user_id: 'u-cy',
      role: 'viewer',
      created_at: AT,
    });

    expect(await members.findWorkspaceRole(db(), 'ws-1', 'u-bob')).toBe('editor');
    expect(await members.findWorkspaceRole(db(), 'ws-2', 'u-bob')).toBeUndefined();
    const rolesOfCy = await members.listWorkspaceRoles(db(), 'u-cy');
    expect(rolesOfCy.sort((a, b) => a.workspace_id.localeCompare(b.workspace_id))).toEqual([
      { workspace_id: 'ws-1', role: 'admin' },
      { workspace_id: 'ws-gone', role: 'viewer' },
    ]);
    expect(await members.listWorkspaceRoles(db(), 'u-ada')).toEqual([]);
    const listed = await members.listWorkspaceMemberUsers(db(), 'ws-1');
    expect(listed.sort((a, b) => a.user_id.localeCompare(b.user_id))).toEqual([
      {
        user_id: 'u-bob',
        name: 'User u-bob',
        email: 'u-bob@example.com',
        handle: 'u-bob',
        role: 'editor',
        joined_at: AT,
      },
      {
        user_id: 'u-cy',
        name: 'User u-cy',
        email: 'u-cy@example.com',
        handle: 'u-cy',
        role: 'admin',
        joined_at: LATER,
      },
    ]);
  });

  it('tells whether someone works in any workspace of an organization, deleted ones only when asked', async () => {
    expect(await members.isMemberOfAnyWorkspaceOf(db(), 'org-a', 'u-bob')).toBe(true);
    expect(await members.isMemberOfAnyWorkspaceOf(db(), 'org-a', 'u-ada')).toBe(false);
    expect(await members.isMemberOfAnyWorkspaceOf(db(), 'org-b', 'u-cy')).toBe(false);
    expect(await members.isMemberOfAnyWorkspaceOf(db(), 'org-b', 'u-cy', { includeDeleted: true })).toBe(
      true,
    );
  });

  it('reads the role that gives access: Super Admin through the organization first', async () => {
    await insertOrgMember(db(), { org_id: 'org-a', user_id: 'u-ada', role: 'superadmin', created_at: AT });
    await insertOrgMember(db(), { org_id: 'org-a', user_id: 'u-cy', role: 'member', created_at: AT });
    const ws1 = { id: 'ws-1', org_id: 'org-a' };
    expect(await members.findStoredWorkspaceRole(db(), ws1, 'u-ada')).toEqual({
      role: 'superadmin',
      viaOrg: true,
    });
    expect(await members.findStoredWorkspaceRole(db(), ws1, 'u-cy')).toEqual({
      role: 'admin',
      viaOrg: false,
    });
    expect(
      await members.findStoredWorkspaceRole(db(), { id: 'ws-2', org_id: 'org-a' }, 'u-bob'),
    ).toBeUndefined();
    expect((await workspaces.listLiveIdsAmong(db(), ['ws-2', 'ws-gone', 'ws-none'])).sort()).toEqual([
      'ws-2',
    ]);
    expect(await workspaces.listLiveIdsAmong(db(), [])).toEqual([]);
  });

  it('removes a member once', async () => {
    expect(await members.deleteWorkspaceMember(db(), 'ws-1', 'u-bob')).toBe(true);
    expect(await members.deleteWorkspaceMember(db(), 'ws-1', 'u-bob')).toBe(false);
    expect(await members.findWorkspaceRole(db(), 'ws-1', 'u-bob')).toBeUndefined();
    expect(await members.findWorkspaceRole(db(), 'ws-1', 'u-cy')).toBe('admin');
  });

  it('tells whether a user holds one of some roles in a live workspace, within one organization when asked', async () => {
    const editing = ['editor', 'admin', 'superadmin'];
    expect(await members.holdsWorkspaceRole(db(), 'u-cy', editing)).toBe(true);
    expect(await members.holdsWorkspaceRole(db(), 'u-cy', editing, 'org-a')).toBe(true);
    expect(await members.holdsWorkspaceRole(db(), 'u-cy', editing, 'org-b')).toBe(false);
    expect(await members.holdsWorkspaceRole(db(), 'u-cy', ['viewer'])).toBe(false);
    expect(await members.holdsWorkspaceRole(db(), 'u-cy', [])).toBe(false);
  });
});
