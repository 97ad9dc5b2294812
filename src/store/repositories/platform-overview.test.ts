import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { seedOrg, seedPage, seedUser, seedWorkspace } from '../../../test/helpers/seed-rows.js';
import * as overview from './platform-overview.js';
import { replaceDomainOfWorkspace } from './custom-domains.js';

describeEachDatabase('platform overview repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('counts live users, organizations by plan, live workspaces and pages', async () => {
    await seedUser(db(), 'u-1', { createdAt: '2026-03-01T10:00:00.000Z' });
    await seedUser(db(), 'u-2', { createdAt: '2026-03-01T23:00:00.000Z' });
    await seedUser(db(), 'u-3', { createdAt: '2026-03-03T01:00:00.000Z' });
    await seedUser(db(), 'u-old', { createdAt: '2026-01-01T00:00:00.000Z' });
    await db()
      .updateTable('users')
      .set({ deleted_at: '2026-03-04T00:00:00.000Z' })
      .where('id', '=', 'u-3')
      .execute();
    await seedOrg(db(), 'org-1', { handle: 'acme' });
    await seedOrg(db(), 'org-2', { handle: 'beta' });
    await db().updateTable('orgs').set({ plan: 'team' }).where('id', '=', 'org-2').execute();
    await seedWorkspace(db(), 'ws-1', 'org-1', { slug: 'docs' });
    await seedWorkspace(db(), 'ws-2', 'org-2', { slug: 'guide' });
    await seedWorkspace(db(), 'ws-gone', 'org-2', { slug: 'gone', deletedAt: '2026-03-01T00:00:00.000Z' });
    await seedPage(db(), 'p-1', 'ws-1');

    expect(await overview.platformTotals(db())).toEqual({
      users: 3,
      organizations: 2,
      workspaces: 2,
      pages: 1,
      organizations_by_plan: { free: 1, team: 1 },
    });
  });

  it('counts sign-ups and active organizations per UTC day since a moment', async () => {
    const since = '2026-02-01T00:00:00.000Z';
    expect([...(await overview.signupsPerDay(db(), since))].sort()).toEqual([
      ['2026-03-01', 2],
      ['2026-03-03', 1],
    ]);
    const activity = (id: string, workspaceId: string, at: string) => ({
      id,
      workspace_id: workspaceId,
      action: 'page_updated',
      path: null,
      page_id: null,
      actor_id: null,
      details: '{}',
      created_at: at,
    });
    await db()
      .insertInto('activity')
      .values([
        activity('a1', 'ws-1', '2026-03-02T01:00:00.000Z'),
        activity('a2', 'ws-1', '2026-03-02T02:00:00.000Z'),
        activity('a3', 'ws-2', '2026-03-02T03:00:00.000Z'),
        activity('a4', 'ws-2', '2026-03-05T00:00:00.000Z'),
        activity('a0', 'ws-2', '2026-01-05T00:00:00.000Z'),
      ])
      .execute();
    expect([...(await overview.activeOrgsPerDay(db(), since))].sort()).toEqual([
      ['2026-03-02', 2],
      ['2026-03-05', 1],
    ]);
  });

  it('lists custom domains by name with their workspace and organization, and finds one', async () => {
    const domain = (workspaceId: string, name: string) => ({
      workspace_id: workspaceId,
      domain: name,
      token: 't',
      status: 'pending',
      verified_at: null,
      checked_at: null,
      created_at: '2026-03-01T00:00:00.000Z',
    });
    await replaceDomainOfWorkspace(db(), domain('ws-2', 'b.example'));
    await replaceDomainOfWorkspace(db(), domain('ws-1', 'a.example'));

    const all = await overview.listDomainsWithOwners(db(), { limit: 10 });
    expect(all.map((d) => [d.domain, d.workspace, d.org, d.workspace_id])).toEqual([
      ['a.example', 'docs', 'acme', 'ws-1'],
      ['b.example', 'guide', 'beta', 'ws-2'],
    ]);
    expect(
      (await overview.listDomainsWithOwners(db(), { limit: 10, after: 'a.example' })).map((d) => d.domain),
    ).toEqual(['b.example']);
    expect(await overview.findDomainWithOwner(db(), 'b.example')).toMatchObject({
      status: 'pending',
      org: 'beta',
    });
    expect(await overview.findDomainWithOwner(db(), 'c.example')).toBeUndefined();
  });
});
