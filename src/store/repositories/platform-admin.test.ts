import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import {
  SEEDED_AT as AT,
  seedOrg,
  seedOrgMember,
  seedPage,
  seedUser,
  seedWorkspace,
  seedWorkspaceMember,
} from '../../../test/helpers/seed-rows.js';
import * as admin from './platform-admin.js';

describeEachDatabase('platform administration repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('lists and searches users, and shows one with organizations, memberships and live sessions', async () => {
    await seedUser(db(), 'u-01', { email: 'ada@example.test', name: 'Ada Lovelace' });
    await seedUser(db(), 'u-02', { email: 'bob@example.test', name: 'Bob' });
    await seedUser(db(), 'u-03', { email: 'cy@example.test', name: 'Cy' });
    await seedOrg(db(), 'org-1', { handle: 'acme', name: 'Acme Corp' });
    await seedOrg(db(), 'org-2', { handle: 'beta', name: 'Beta' });
    await seedOrgMember(db(), 'org-1', 'u-01', 'superadmin');
    await seedOrgMember(db(), 'org-2', 'u-02', 'member');
    await seedWorkspace(db(), 'ws-1', 'org-1', { slug: 'zeta' });
    await seedWorkspace(db(), 'ws-2', 'org-1', { slug: 'alpha' });
    await seedWorkspace(db(), 'ws-gone', 'org-1', { slug: 'gone', deletedAt: AT });
    await seedWorkspaceMember(db(), 'ws-1', 'u-01', 'admin');
    await seedWorkspaceMember(db(), 'ws-2', 'u-01', 'editor');
    await seedPage(db(), 'p-1', 'ws-2');
    await seedPage(db(), 'p-2', 'ws-2');

    const ids = async (options: { limit: number; before?: string; q?: string }) =>
      (await admin.listUsersForAdmin(db(), options)).map((u) => u.id);
    expect(await ids({ limit: 10 })).toEqual(['u-03', 'u-02', 'u-01']);
    expect(await ids({ limit: 1, before: 'u-03' })).toEqual(['u-02']);
    expect(await ids({ limit: 10, q: 'LOVELACE' })).toEqual(['u-01']);
    expect(await ids({ limit: 10, q: 'bob@' })).toEqual(['u-02']);
    expect(await admin.findUserForAdmin(db(), 'u-01')).toEqual({
      id: 'u-01',
      name: 'Ada Lovelace',
      email: 'ada@example.test',
      handle: 'u-01',
      is_platform_owner: 0,
      created_at: AT,
      deleted_at: null,
    });
    expect(await admin.findUserForAdmin(db(), 'u-none')).toBeUndefined();
    expect(await admin.listOrgsOfUserForAdmin(db(), 'u-01')).toEqual([
      { id: 'org-1', handle: 'acme', name: 'Acme Corp', plan: 'free', role: 'superadmin' },
    ]);
    expect(await admin.countWorkspaceMembershipsOfUser(db(), 'u-01')).toBe(2);
    expect(await admin.countWorkspaceMembershipsOfUser(db(), 'u-03')).toBe(0);

    const session = (id: string, expiresAt: string, lastActiveAt: string) => ({
      id,
      user_id: 'u-01',
      device: 'Firefox',
      ip: '192.0.2.1',
      created_at: AT,
      last_active_at: lastActiveAt,
      expires_at: expiresAt,
      key_id: null,
    });
    await db()
      .insertInto('sessions')
      .values([
        session('s-old', '2026-01-03T00:00:00.000Z', '2026-01-02T05:00:00.000Z'),
        session('s-a', '2026-12-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'),
        session('s-b', '2026-12-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'),
      ])
      .execute();
    const live = await admin.listLiveSessionsOfUser(db(), 'u-01', '2026-06-01T00:00:00.000Z');
    expect(live.map((s) => s.id)).toEqual(['s-b', 's-a']);
    expect(live[0]).toMatchObject({ impersonated_by: null, device: 'Firefox' });
  });

  it('lists and searches organizations with counts, shows one, and changes its owner-set columns', async () => {
    const summaries = await admin.listOrgSummaries(db(), { limit: 10 });
    expect(summaries.map((o) => [o.id, Number(o.member_count), Number(o.workspace_count)])).toEqual([
      ['org-2', 1, 0],
      ['org-1', 1, 2],
    ]);
    expect((await admin.listOrgSummaries(db(), { limit: 10, q: 'ACME' })).map((o) => o.id)).toEqual([
      'org-1',
    ]);
    expect((await admin.listOrgSummaries(db(), { limit: 10, before: 'org-2' })).map((o) => o.id)).toEqual([
      'org-1',
    ]);
    expect(await admin.findOrgSummary(db(), 'org-1')).toMatchObject({
      handle: 'acme',
      subscription_override: null,
    });
    expect(await admin.findOrgSummary(db(), 'org-x')).toBeUndefined();

    expect(await admin.findOrgByIdOrHandle(db(), 'acme')).toMatchObject({ id: 'org-1', rate_limits: null });
    expect(await admin.findOrgByIdOrHandle(db(), 'org-1')).toMatchObject({ handle: 'acme' });
    expect(await admin.findOrgByIdOrHandle(db(), 'nobody')).toBeUndefined();
    expect(await admin.listLiveWorkspacesWithPageCounts(db(), 'org-1')).toEqual([
      { id: 'ws-2', slug: 'alpha', name: 'Workspace ws-2', created_at: AT, page_count: 2 },
      { id: 'ws-1', slug: 'zeta', name: 'Workspace ws-1', created_at: AT, page_count: 0 },
    ]);
    await admin.updateOrgAdminColumns(db(), 'org-1', { plan: 'team', rate_limits: '{"api":5}' });
    expect(await admin.findOrgByIdOrHandle(db(), 'org-1')).toMatchObject({ plan: 'team' });
    expect(await admin.findOrgByIdOrHandle(db(), 'org-1')).toMatchObject({ rate_limits: '{"api":5}' });
  });
});
