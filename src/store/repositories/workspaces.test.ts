import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { SEEDED_AT as AT, workspaceRow } from '../../../test/helpers/seed-rows.js';
import type { WorkspaceRow } from '../schema.js';
import { parseStoredSettings, readStoredSettings, writeStoredSettings } from './workspace-settings.js';
import * as workspaces from './workspaces.js';

/** A live workspace row of organization `org-a`. */
const workspace = (id: string, fields: Partial<WorkspaceRow> = {}) => workspaceRow(id, 'org-a', fields);

describeEachDatabase('workspaces repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('inserts rows and finds live ones by id, slug or either; a soft-deleted one only by findById', async () => {
    await db()
      .insertInto('orgs')
      .values([
        { id: 'org-a', handle: 'acme', name: 'Acme', plan: 'free', created_at: AT },
        { id: 'org-b', handle: 'beta', name: 'Beta', plan: 'free', created_at: AT },
      ])
      .execute();
    const live = workspace('ws-live', { slug: 'handbook' });
    await workspaces.insertRow(db(), live);
    await workspaces.insertRow(db(), workspace('ws-gone', { slug: 'old-docs' }));
    await workspaces.softDelete(db(), 'ws-gone', '2026-02-01T00:00:00.000Z');

    expect(await workspaces.findLive(db(), 'ws-live')).toEqual(live);
    expect(await workspaces.findLive(db(), 'handbook')).toEqual(live);
    expect(await workspaces.findLiveById(db(), 'ws-live')).toEqual(live);
    expect(await workspaces.findLiveById(db(), 'handbook')).toBeUndefined();
    expect(await workspaces.findLiveBySlug(db(), 'handbook')).toEqual(live);

    expect(await workspaces.findLive(db(), 'old-docs')).toBeUndefined();
    expect(await workspaces.findLiveBySlug(db(), 'old-docs')).toBeUndefined();
    expect(await workspaces.findById(db(), 'ws-gone')).toMatchObject({
      deleted_at: '2026-02-01T00:00:00.000Z',
      updated_at: '2026-02-01T00:00:00.000Z',
    });
    expect(await workspaces.existsWithId(db(), 'ws-gone')).toBe(true);
    expect(await workspaces.existsWithId(db(), 'ws-none')).toBe(false);
  });

  it('keeps slugs taken for good and lists the ones sharing a base', async () => {
    await workspaces.insertRow(db(), workspace('ws-h2', { slug: 'handbook-2' }));
    await workspaces.insertRow(db(), workspace('ws-hx', { slug: 'handbookish' }));
    expect(await workspaces.isSlugTaken(db(), 'old-docs')).toBe(true);
    expect(await workspaces.isSlugTaken(db(), 'new-docs')).toBe(false);
    expect((await workspaces.listSlugsLike(db(), 'handbook')).sort()).toEqual(['handbook', 'handbook-2']);
  });

  it('lists live workspaces by slug, one slug, those with a remote, and pages of them with the org handle', async () => {
    await workspaces.insertRow(
      db(),
      workspace('ws-git', {
        slug: 'aaa-synced',
        org_id: 'org-b',
        git_remote: 'https://git.example/docs.git',
      }),
    );
    expect((await workspaces.listLive(db())).map((w) => w.slug)).toEqual([
      'aaa-synced',
      'handbook',
      'handbook-2',
      'handbookish',
    ]);
    expect((await workspaces.listLive(db(), { slug: 'handbook' })).map((w) => w.id)).toEqual(['ws-live']);
    expect(await workspaces.listLiveIdsWithRemote(db())).toEqual(['ws-git']);

    const all = await workspaces.listLiveWithOrgHandle(db(), { limit: 10 });
    expect(all.map((w) => [w.id, w.org_handle])).toEqual([
      ['ws-git', 'beta'],
      ['ws-h2', 'acme'],
      ['ws-hx', 'acme'],
      ['ws-live', 'acme'],
    ]);
    const page = await workspaces.listLiveWithOrgHandle(db(), { after: 'ws-git', limit: 2 });
    expect(page.map((w) => w.id)).toEqual(['ws-h2', 'ws-hx']);
    const among = await workspaces.listLiveWithOrgHandle(db(), {
      among: { orgIds: ['org-b'], ids: ['ws-live', 'ws-gone'] },
      limit: 10,
    });
    expect(among.map((w) => w.id)).toEqual(['ws-git', 'ws-live']);
    const ownOrgOnly = await workspaces.listLiveWithOrgHandle(db(), {
      among: { orgIds: ['org-b'], ids: ['ws-live'], onlyOrg: 'org-a' },
      limit: 10,
    });
    expect(ownOrgOnly.map((w) => w.id)).toEqual(['ws-live']);
  });

  it('moves the workspaces of organizations into another', async () => {
    expect((await workspaces.listByOrgs(db(), ['org-b'])).map((w) => w.id)).toEqual(['ws-git']);
    await workspaces.moveToOrg(db(), ['org-b'], 'org-a');
    expect(await workspaces.listByOrgs(db(), ['org-b'])).toEqual([]);
    expect(await workspaces.findById(db(), 'ws-git')).toMatchObject({ org_id: 'org-a' });
    expect(await workspaces.listByOrgs(db(), [])).toEqual([]);
  });

  it('changes the sync status only when it differs, or only from the given status', async () => {
    expect(await workspaces.findSyncStatus(db(), 'ws-git')).toBe('idle');
    expect(await workspaces.updateSyncStatus(db(), 'ws-git', 'syncing')).toBe(true);
    expect(await workspaces.updateSyncStatus(db(), 'ws-git', 'syncing')).toBe(false);
    expect(await workspaces.updateSyncStatus(db(), 'ws-git', 'idle', { from: 'error' })).toBe(false);
    expect(await workspaces.findSyncStatus(db(), 'ws-git')).toBe('syncing');
    await workspaces.updateSyncStatus(db(), 'ws-git', 'error');
    expect(await workspaces.updateSyncStatus(db(), 'ws-git', 'idle', { from: 'error' })).toBe(true);
    expect(await workspaces.findSyncStatus(db(), 'ws-git')).toBe('idle');
    expect(await workspaces.findSyncStatus(db(), 'ws-none')).toBeUndefined();
  });

  it('updates the remote and touches the row inside a transaction', async () => {
    await db()
      .transaction()
      .execute(async (trx) => {
        await workspaces.touch(trx, 'ws-live', '2026-03-01T00:00:00.000Z');
        await workspaces.updateRemote(trx, 'ws-live', {
          git_remote: 'git@example.com:docs.git',
          git_branch: 'trunk',
          updated_at: '2026-03-02T00:00:00.000Z',
        });
      });
    expect(await workspaces.findById(db(), 'ws-live')).toMatchObject({
      git_remote: 'git@example.com:docs.git',
      git_branch: 'trunk',
      updated_at: '2026-03-02T00:00:00.000Z',
    });
    const onBranch = async (branch: string) =>
      (await workspaces.listLiveWithRemoteOnBranch(db(), branch)).map((w) => [w.id, w.git_remote]);
    expect(await onBranch('trunk')).toEqual([['ws-live', 'git@example.com:docs.git']]);
    expect(await onBranch('main')).toEqual([['ws-git', 'https://git.example/docs.git']]);
    expect(await onBranch('gh-pages')).toEqual([]);
  });

  it('stores settings as a JSON object and reads unreadable ones as nothing stored', async () => {
    expect(await readStoredSettings(db(), 'ws-live')).toEqual({});
    const json = await writeStoredSettings(db(), 'ws-live', { public_site: true, theme: 'dark', extra: 1 });
    expect(await readStoredSettings(db(), 'ws-live')).toEqual({ public_site: true, theme: 'dark', extra: 1 });
    const row = await workspaces.findById(db(), 'ws-live');
    expect(row?.settings).toBe(json);
    expect(row?.updated_at).toBe('2026-03-02T00:00:00.000Z');

    await writeStoredSettings(db(), 'ws-live', { site_title: 'Handbook' }, { updatedAt: AT });
    expect(await workspaces.findById(db(), 'ws-live')).toMatchObject({
      settings: '{"site_title":"Handbook"}',
      updated_at: AT,
    });
    await db().updateTable('workspaces').set({ settings: 'not json' }).where('id', '=', 'ws-h2').execute();
    expect(await readStoredSettings(db(), 'ws-h2')).toEqual({});
    expect(await readStoredSettings(db(), 'ws-none')).toBeUndefined();
    expect(parseStoredSettings('[1,2]')).toEqual({});
    expect(parseStoredSettings('null')).toEqual({});
  });
});
