import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import {
  pageRowOf as page,
  SEEDED_AT as AT,
  seedOrg,
  seedPage,
  seedUser,
  seedWorkspace,
  workspaceRow,
} from '../../../test/helpers/seed-rows.js';
import type { PageRow } from '../schema.js';
import * as pages from './pages.js';

const paths = (rows: PageRow[]) => rows.map((r) => r.path);

describeEachDatabase('pages repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('inserts rows and finds them by path, by id and across workspaces only where asked', async () => {
    await db()
      .insertInto('orgs')
      .values({ id: 'org', handle: 'acme', name: 'Acme', plan: 'free', created_at: AT })
      .execute();
    for (const id of ['ws-1', 'ws-2']) {
      await db()
        .insertInto('workspaces')
        .values(workspaceRow(id, 'org', { name: id }))
        .execute();
    }
    const guide = page('p-guide', 'ws-1', 'guide.md', { status: 'published', tags: '["a"]' });
    await pages.insertRow(db(), guide);
    await pages.insertRow(db(), page('p-intro', 'ws-1', 'intro.md', { status: 'published' }));
    await pages.insertRow(db(), page('p-secret', 'ws-1', 'admin/secret.md', { restricted: 1 }));
    await pages.insertRow(db(), page('p-draft', 'ws-1', 'b/draft.md'));
    await pages.insertRow(db(), page('p-other', 'ws-2', 'guide.md'));

    expect(await pages.findByPath(db(), 'ws-1', 'guide.md')).toEqual(guide);
    expect((await pages.findByPath(db(), 'ws-2', 'guide.md'))?.id).toBe('p-other');
    expect(await pages.findByPath(db(), 'ws-1', 'missing.md')).toBeUndefined();
    expect(await pages.findById(db(), 'ws-1', 'p-guide')).toEqual(guide);
    expect(await pages.findById(db(), 'ws-2', 'p-guide')).toBeUndefined();
    expect(await pages.findByIdAnywhere(db(), 'p-other')).toMatchObject({ workspace_id: 'ws-2' });
  });

  it('lists a workspace by path, published pages, drafts, and visible pages', async () => {
    expect(paths(await pages.listByWorkspace(db(), 'ws-1')).sort()).toEqual([
      'admin/secret.md',
      'b/draft.md',
      'guide.md',
      'intro.md',
    ]);
    expect([...(await pages.mapByPath(db(), 'ws-2')).keys()]).toEqual(['guide.md']);
    expect(paths(await pages.listOrderedByPath(db(), 'ws-1', { includeRestricted: true }))).toEqual([
      'admin/secret.md',
      'b/draft.md',
      'guide.md',
      'intro.md',
    ]);
    expect(paths(await pages.listOrderedByPath(db(), 'ws-1', { includeRestricted: false }))).toEqual([
      'b/draft.md',
      'guide.md',
      'intro.md',
    ]);
    expect(paths(await pages.listPublished(db(), 'ws-1'))).toEqual(['guide.md', 'intro.md']);
    // The restricted page is a draft too, but only an admin may see it, so it is not offered for publishing.
    expect(paths(await pages.listDrafts(db(), 'ws-1'))).toEqual(['b/draft.md']);
    expect(paths(await pages.listByIds(db(), 'ws-1', ['p-intro', 'p-other', 'p-none'])).sort()).toEqual([
      'intro.md',
    ]);
    expect(await pages.listByIds(db(), 'ws-1', [])).toEqual([]);
    expect(await pages.idsUsedElsewhere(db(), 'ws-2', ['p-guide', 'p-other', 'p-none'])).toEqual(
      new Set(['p-guide']),
    );
  });

  it("raises a workspace's revision with every change to its pages, and no other's", async () => {
    const revision = async () => [
      await pages.changeFingerprint(db(), 'ws-1'),
      await pages.changeFingerprint(db(), 'ws-2'),
    ];
    const [before, other] = await revision();
    expect(await pages.changeFingerprint(db(), 'ws-empty')).toBe('0');
    const guide = (await pages.findById(db(), 'ws-1', 'p-guide'))!;
    await pages.replaceRow(db(), guide);
    const [afterReplace] = await revision();
    expect(afterReplace).not.toBe(before);
    await pages.updateSortOrder(db(), { ...guide, sort_order: guide.sort_order });
    const [afterOrder] = await revision();
    expect(afterOrder).not.toBe(afterReplace);
    await pages.deleteAtPath(db(), 'ws-1', 'no-such-page.md');
    expect((await revision())[0]).toBe(afterOrder);
    expect((await revision())[1]).toBe(other);
  });

  it('replaces, moves and reorders rows', async () => {
    const guide = (await pages.findById(db(), 'ws-1', 'p-guide'))!;
    await pages.replaceRow(db(), { ...guide, title: 'The guide', updated_by: 'u1' });
    expect(await pages.findById(db(), 'ws-1', 'p-guide')).toEqual({
      ...guide,
      title: 'The guide',
      updated_by: 'u1',
    });

    await pages.updateLocation(db(), {
      id: 'p-guide',
      workspace_id: 'ws-1',
      path: 'guides/start.md',
      content_hash: 'hash-moved',
      updated_at: '2026-02-01T00:00:00.000Z',
      updated_by: 'u2',
    });
    expect(await pages.findByPath(db(), 'ws-1', 'guide.md')).toBeUndefined();
    expect(await pages.findByPath(db(), 'ws-1', 'guides/start.md')).toMatchObject({
      id: 'p-guide',
      title: 'The guide',
      content_hash: 'hash-moved',
      updated_by: 'u2',
    });

    await pages.updateSortOrder(db(), {
      id: 'p-intro',
      workspace_id: 'ws-1',
      sort_order: 7,
      frontmatter_hash: 'fm-ordered',
      updated_at: '2026-02-02T00:00:00.000Z',
      updated_by: 'u3',
    });
    expect(await pages.findById(db(), 'ws-1', 'p-intro')).toMatchObject({
      sort_order: 7,
      frontmatter_hash: 'fm-ordered',
      updated_at: '2026-02-02T00:00:00.000Z',
      updated_by: 'u3',
      content_hash: 'hash-p-intro',
    });
  });

  it('finds where a page moved from its alias', async () => {
    await db()
      .insertInto('page_aliases')
      .values([
        { workspace_id: 'ws-1', old_path: 'guide.md', page_id: 'p-guide', created_at: AT },
        { workspace_id: 'ws-1', old_path: 'gone.md', page_id: 'p-deleted', created_at: AT },
      ])
      .execute();
    expect((await pages.findMovedFrom(db(), 'ws-1', 'guide.md'))?.path).toBe('guides/start.md');
    expect(await pages.findMovedFrom(db(), 'ws-2', 'guide.md')).toBeUndefined();
    expect(await pages.findMovedFrom(db(), 'ws-1', 'gone.md')).toBeUndefined();
  });

  it('upserts many rows by id in one call, inserting new ones and replacing known ones', async () => {
    const intro = (await pages.findById(db(), 'ws-1', 'p-intro'))!;
    const many = Array.from({ length: 620 }, (_, i) => page(`p-bulk-${i}`, 'ws-1', `bulk/${i}.md`));
    await pages.upsertRows(db(), [...many, { ...intro, title: 'Introduction', status: 'draft' }]);
    expect(await pages.listByWorkspace(db(), 'ws-1')).toHaveLength(624);
    expect(await pages.findById(db(), 'ws-1', 'p-intro')).toEqual({
      ...intro,
      title: 'Introduction',
      status: 'draft',
    });
    await pages.upsertRows(db(), [{ ...many[0]!, path: 'bulk/first.md' }]);
    expect((await pages.findById(db(), 'ws-1', 'p-bulk-0'))?.path).toBe('bulk/first.md');
  });

  it('deletes by ids in batches and a stale row at a path, sparing the page that moves there', async () => {
    await pages.deleteByIds(
      db(),
      Array.from({ length: 620 }, (_, i) => `p-bulk-${i}`),
    );
    expect(paths(await pages.listOrderedByPath(db(), 'ws-1', { includeRestricted: true }))).toEqual([
      'admin/secret.md',
      'b/draft.md',
      'guides/start.md',
      'intro.md',
    ]);
    await pages.deleteAtPath(db(), 'ws-1', 'intro.md', { exceptId: 'p-intro' });
    expect(await pages.findByPath(db(), 'ws-1', 'intro.md')).toBeDefined();
    await db()
      .transaction()
      .execute(async (trx) => {
        await pages.deleteAtPath(trx, 'ws-1', 'intro.md');
        await pages.insertRow(trx, page('p-new', 'ws-1', 'intro.md'));
      });
    expect((await pages.findByPath(db(), 'ws-1', 'intro.md'))?.id).toBe('p-new');
    expect(await pages.findByPath(db(), 'ws-2', 'guide.md')).toBeDefined();
  });

  it("lists published pages with their last editor's name, null where none is known", async () => {
    await seedOrg(db(), 'org-authors');
    await seedWorkspace(db(), 'ws-authors', 'org-authors');
    await seedUser(db(), 'u-1', { name: 'Ada' });
    await seedPage(db(), 'p-a1', 'ws-authors', 'by-ada.md');
    await seedPage(db(), 'p-a2', 'ws-authors', 'from-git.md');
    await seedPage(db(), 'p-a3', 'ws-authors', 'draft.md');
    await db().updateTable('pages').set({ updated_by: 'u-1' }).where('id', 'in', ['p-a1', 'p-a3']).execute();
    await db().updateTable('pages').set({ status: 'draft' }).where('id', '=', 'p-a3').execute();

    const rows = await pages.listPublishedPathsWithEditorName(db(), 'ws-authors');
    expect(rows.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'by-ada.md', name: 'Ada' },
      { path: 'from-git.md', name: null },
    ]);
    expect(await pages.listPublishedPathsWithEditorName(db(), 'ws-other')).toEqual([]);
  });
});
