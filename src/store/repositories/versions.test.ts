import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { seedOrg, seedPage, seedUser, seedWorkspace } from '../../../test/helpers/seed-rows.js';
import * as versions from './versions.js';

const version = (id: string, slug: string, workspaceId = 'ws-a'): versions.DocVersionRow => ({
  id,
  workspace_id: workspaceId,
  slug,
  name: `Version ${slug}`,
  tag: `folio/v/${slug}`,
  commit_sha: 'c'.repeat(40),
  page_count: 0,
  created_by: null,
  created_at: '2026-07-01T00:00:00.000Z',
});

describeEachDatabase('versions repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('stores versions with their pages, finds them by slug and lists them newest first', async () => {
    await seedOrg(db(), 'org-a');
    await seedWorkspace(db(), 'ws-a', 'org-a');
    await seedWorkspace(db(), 'ws-b', 'org-a');
    await seedPage(db(), 'p-1', 'ws-a', 'b.md');
    await seedPage(db(), 'p-2', 'ws-a', 'a.md');

    await versions.insertVersionWithPages(db(), version('01A', 'v1'), [
      { path: 'b.md', page_id: 'p-1', content_hash: 'h1', title: 'B' },
      { path: 'a.md', page_id: 'p-2', content_hash: 'h2', title: 'A' },
    ]);
    await versions.insertVersionWithPages(db(), version('01B', 'v2'), []);
    await versions.insertVersionWithPages(db(), version('01C', 'v3'), []);
    await versions.insertVersionWithPages(db(), version('01Z', 'v1', 'ws-b'), []);

    expect(await versions.findVersionBySlug(db(), 'ws-a', 'v1')).toEqual(version('01A', 'v1'));
    expect(await versions.findVersionBySlug(db(), 'ws-a', 'v9')).toBeUndefined();
    expect((await versions.listPagesOfVersion(db(), '01A')).map((p) => [p.path, p.page_id])).toEqual([
      ['a.md', 'p-2'],
      ['b.md', 'p-1'],
    ]);

    const ids = async (options?: { before?: string; limit?: number }) =>
      (await versions.listVersionsOfWorkspace(db(), 'ws-a', options)).map((v) => v.id);
    expect(await ids()).toEqual(['01C', '01B', '01A']);
    expect(await ids({ limit: 2 })).toEqual(['01C', '01B']);
    expect(await ids({ before: '01C', limit: 5 })).toEqual(['01B', '01A']);
  });

  it('deletes a version with its pages, and reads a tagger identity', async () => {
    await versions.deleteVersion(db(), '01A');
    expect(await versions.findVersionBySlug(db(), 'ws-a', 'v1')).toBeUndefined();
    expect(await versions.listPagesOfVersion(db(), '01A')).toEqual([]);
    expect(await versions.findVersionBySlug(db(), 'ws-b', 'v1')).toBeDefined();

    await seedUser(db(), 'u-1', { name: 'Ada', email: 'ada@example.test' });
    expect(await versions.findTaggerIdentity(db(), 'u-1')).toEqual({
      name: 'Ada',
      email: 'ada@example.test',
    });
    expect(await versions.findTaggerIdentity(db(), 'u-x')).toBeUndefined();
  });

  it('gives a fingerprint that moves when a version is added or deleted', async () => {
    const before = await versions.versionsFingerprint(db(), 'ws-a');
    expect(before).toBe('2/01C');
    expect(await versions.versionsFingerprint(db(), 'ws-none')).toBe('0/');
    await versions.insertVersionWithPages(db(), version('01D', 'v4'), []);
    expect(await versions.versionsFingerprint(db(), 'ws-a')).toBe('3/01D');
    await versions.deleteVersion(db(), '01D');
    expect(await versions.versionsFingerprint(db(), 'ws-a')).toBe(before);
  });
});
