import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { SEEDED_AT as AT, userRow } from '../../../test/helpers/seed-rows.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import * as orgs from './orgs.js';
import { insertUser } from './users.js';

const LATER = '2026-03-01T00:00:00.000Z';

describeEachDatabase('orgs repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('inserts organizations and finds them by id and handle, and the handles sharing a base', async () => {
    await orgs.insertOrg(db(), { id: 'org-a', handle: 'acme', name: 'Acme', plan: 'free', created_at: AT });
    await orgs.insertOrg(db(), {
      id: 'org-b',
      handle: 'acme-2',
      name: 'Acme Two',
      plan: 'team',
      created_at: AT,
    });
    await orgs.insertOrg(db(), {
      id: 'org-c',
      handle: 'acmeish',
      name: 'Other',
      plan: 'free',
      created_at: AT,
    });
    expect(await orgs.findOrgById(db(), 'org-a')).toMatchObject({
      handle: 'acme',
      name: 'Acme',
      plan: 'free',
    });
    expect(await orgs.findOrgByHandle(db(), 'acme-2')).toMatchObject({ id: 'org-b', plan: 'team' });
    expect(await orgs.findOrgById(db(), 'org-none')).toBeUndefined();
    expect(await orgs.findOrgByHandle(db(), 'none')).toBeUndefined();
    expect(await orgs.findOrgHandle(db(), 'org-b')).toBe('acme-2');
    expect(await orgs.findOrgHandle(db(), 'org-none')).toBeUndefined();
    expect((await orgs.listOrgHandlesLike(db(), 'acme')).sort()).toEqual(['acme', 'acme-2']);
  });

  it('keeps memberships: roles, the home organization, and the organizations of a user', async () => {
    await insertUser(db(), userRow('u-ada', { is_platform_owner: 1 }));
    await insertUser(db(), userRow('u-bob'));
    await insertUser(db(), userRow('u-cy'));
    await orgs.insertOrgMember(db(), { org_id: 'org-b', user_id: 'u-ada', role: 'member', created_at: AT });
    await orgs.insertOrgMember(db(), {
      org_id: 'org-a',
      user_id: 'u-ada',
      role: 'superadmin',
      created_at: LATER,
    });
    await orgs.insertOrgMember(db(), { org_id: 'org-a', user_id: 'u-bob', role: 'member', created_at: AT });
    await orgs.insertOrgMember(db(), {
      org_id: 'org-b',
      user_id: 'u-bob',
      role: 'member',
      created_at: LATER,
    });

    expect(await orgs.findOrgMembership(db(), 'org-a', 'u-ada')).toEqual({
      org_id: 'org-a',
      user_id: 'u-ada',
      role: 'superadmin',
      created_at: LATER,
    });
    expect(await orgs.findOrgRole(db(), 'org-a', 'u-bob')).toBe('member');
    expect(await orgs.findOrgRole(db(), 'org-c', 'u-bob')).toBeUndefined();

    // Super Admin of an organization wins over an older plain membership; else the oldest.
    expect(await orgs.findHomeOrgId(db(), 'u-ada')).toBe('org-a');
    expect(await orgs.findHomeOrgId(db(), 'u-bob')).toBe('org-a');
    expect(await orgs.findHomeOrgId(db(), 'u-cy')).toBeUndefined();

    expect(await orgs.listMembershipsOfUser(db(), 'u-ada', { orgId: 'org-a' })).toEqual([
      {
        id: 'org-a',
        handle: 'acme',
        name: 'Acme',
        role: 'superadmin',
        joined_at: LATER,
      },
    ]);
    expect(await orgs.listMembershipsOfUser(db(), 'u-ada', { orgId: 'org-c' })).toEqual([]);

    expect((await orgs.listMembershipsOfUser(db(), 'u-ada')).map((m) => [m.id, m.role])).toEqual([
      ['org-b', 'member'],
      ['org-a', 'superadmin'],
    ]);
    expect(
      (await orgs.listMembershipsOfUser(db(), 'u-ada', { role: 'superadmin' })).map((m) => m.id),
    ).toEqual(['org-a']);
    expect(await orgs.listMembershipsOfUser(db(), 'u-bob', { role: 'superadmin' })).toEqual([]);
    expect((await orgs.listMembershipsOfUser(db(), 'u-bob', { orgId: 'org-b' })).map((m) => m.id)).toEqual([
      'org-b',
    ]);
  });

  it('lists the members of an organization with their user record and counts its Super Admins', async () => {
    expect(await orgs.listOrgMemberUsers(db(), 'org-a')).toEqual([
      {
        user_id: 'u-bob',
        name: 'User u-bob',
        email: 'u-bob@example.com',
        handle: 'u-bob',
        role: 'member',
        joined_at: AT,
      },
      {
        user_id: 'u-ada',
        name: 'User u-ada',
        email: 'u-ada@example.com',
        handle: 'u-ada',
        role: 'superadmin',
        joined_at: LATER,
      },
    ]);
    expect(
      (await orgs.listOrgMemberUsers(db(), 'org-a', { role: 'superadmin' })).map((m) => m.user_id),
    ).toEqual(['u-ada']);
    expect(await orgs.countOrgSuperadmins(db(), 'org-a')).toBe(1);
    expect(await orgs.countOrgSuperadmins(db(), 'org-b')).toBe(0);
  });

  it('changes roles, upserts a membership keeping when it began, and locks the row in a transaction', async () => {
    await db()
      .transaction()
      .execute(async (trx) => {
        await orgs.lockOrg(trx, 'org-a');
        await orgs.updateOrgMemberRole(trx, 'org-a', 'u-bob', 'superadmin');
      });
    expect(await orgs.countOrgSuperadmins(db(), 'org-a')).toBe(2);
    expect(await orgs.findOrgById(db(), 'org-a')).toMatchObject({ plan: 'free' });

    await orgs.upsertOrgMember(db(), {
      org_id: 'org-b',
      user_id: 'u-bob',
      role: 'superadmin',
      created_at: '2027-01-01T00:00:00.000Z',
    });
    expect(await orgs.findOrgMembership(db(), 'org-b', 'u-bob')).toMatchObject({
      role: 'superadmin',
      created_at: LATER,
    });
    await orgs.upsertOrgMember(db(), { org_id: 'org-c', user_id: 'u-cy', role: 'member', created_at: AT });
    expect(await orgs.findOrgRole(db(), 'org-c', 'u-cy')).toBe('member');
  });

  it('finds the platform owner’s organization, memberless organizations, and deletes organizations', async () => {
    expect(await orgs.findPlatformOwnerOrg(db())).toEqual({ id: 'org-a', handle: 'acme' });
    await orgs.insertOrg(db(), {
      id: 'org-d',
      handle: 'restored',
      name: 'restored',
      plan: 'free',
      created_at: AT,
    });
    expect(await orgs.hasOrgMembers(db(), 'org-d')).toBe(false);
    expect(await orgs.hasOrgMembers(db(), 'org-c')).toBe(true);
    expect(await orgs.listMemberlessOrgIds(db(), 'org-a')).toEqual(['org-d']);
    expect(await orgs.listMemberlessOrgIds(db(), 'org-d')).toEqual([]);
    await orgs.deleteOrgs(db(), ['org-d']);
    await orgs.deleteOrgs(db(), []);
    expect(await orgs.findOrgById(db(), 'org-d')).toBeUndefined();
    expect(await orgs.findOrgById(db(), 'org-c')).toBeDefined();
  });
});
