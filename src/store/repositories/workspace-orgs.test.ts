import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { SEEDED_AT, seedUsers, seedWorkspaces } from '../../../test/helpers/seed-rows.js';
import * as orgs from './workspace-orgs.js';

describeEachDatabase('workspace organizations on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('finds organizations by id or handle and the roles of their members', async () => {
    await seedWorkspaces(db(), ['ws-a', 'ws-b']);
    await seedUsers(db(), ['owner', 'writer']);
    await db()
      .insertInto('orgs')
      .values([
        { id: 'org-b', handle: 'beta', name: 'Beta', plan: 'free', created_at: SEEDED_AT },
        { id: 'org-empty', handle: 'empty', name: 'Empty', plan: 'free', created_at: SEEDED_AT },
      ])
      .execute();
    await db()
      .insertInto('org_members')
      .values([
        { org_id: 'org-a', user_id: 'owner', role: 'superadmin', created_at: SEEDED_AT },
        { org_id: 'org-b', user_id: 'writer', role: 'member', created_at: SEEDED_AT },
      ])
      .execute();
    await db()
      .insertInto('workspace_members')
      .values({ workspace_id: 'ws-b', user_id: 'writer', role: 'editor', created_at: SEEDED_AT })
      .execute();

    expect(await orgs.findOrgHandle(db(), 'org-b')).toBe('beta');
    expect(await orgs.findOrgHandle(db(), 'org-none')).toBeUndefined();
    expect(await orgs.findOrg(db(), { id: 'org-a' })).toEqual({ id: 'org-a', handle: 'acme' });
    expect(await orgs.findOrg(db(), { handle: 'beta' })).toEqual({ id: 'org-b', handle: 'beta' });
    expect(await orgs.findOrg(db(), { handle: 'org-b' })).toBeUndefined();
    expect(await orgs.findOrgRole(db(), 'org-a', 'owner')).toBe('superadmin');
    expect(await orgs.findOrgRole(db(), 'org-a', 'writer')).toBeUndefined();
    expect(await orgs.listSuperadminOrgIds(db(), 'owner')).toEqual(['org-a']);
    expect(await orgs.listSuperadminOrgIds(db(), 'writer')).toEqual([]);
    expect(await orgs.listWorkspaceRoles(db(), 'writer')).toEqual([{ workspace_id: 'ws-b', role: 'editor' }]);
  });

  it('finds the platform owner’s organization once there is one', async () => {
    expect(await orgs.isPlatformOwner(db(), 'owner')).toBe(false);
    expect(await orgs.findPlatformOwnerOrg(db())).toBeUndefined();
    await db().updateTable('users').set({ is_platform_owner: 1 }).where('id', '=', 'owner').execute();
    expect(await orgs.isPlatformOwner(db(), 'owner')).toBe(true);
    expect(await orgs.isPlatformOwner(db(), 'nobody')).toBe(false);
    expect(await orgs.findPlatformOwnerOrg(db())).toEqual({ id: 'org-a', handle: 'acme' });
  });

  it('lists and deletes the organizations without members', async () => {
    expect(await orgs.listOrgIdsWithoutMembers(db(), 'org-a')).toEqual(['org-empty']);
    expect(await orgs.listOrgIdsWithoutMembers(db(), 'org-empty')).toEqual([]);
    await orgs.deleteOrgs(db(), ['org-empty']);
    await orgs.deleteOrgs(db(), []);
    expect(await orgs.findOrgHandle(db(), 'org-empty')).toBeUndefined();
    expect(await orgs.findOrgHandle(db(), 'org-b')).toBe('beta');
  });

  it('tells whether an organization exists and has members, and adds a placeholder', async () => {
    expect(await orgs.orgExists(db(), 'org-a')).toBe(true);
    expect(await orgs.orgExists(db(), 'org-restored')).toBe(false);
    await orgs.insertPlaceholderOrg(db(), { id: 'org-restored', handle: 'restored', at: SEEDED_AT });
    expect(await orgs.orgExists(db(), 'org-restored')).toBe(true);
    expect(await orgs.findOrg(db(), { handle: 'restored' })).toEqual({
      id: 'org-restored',
      handle: 'restored',
    });
    expect(await orgs.orgHasMembers(db(), 'org-restored')).toBe(false);
    expect(await orgs.orgHasMembers(db(), 'org-a')).toBe(true);
  });
});
