import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { seedOrg, seedPage, seedUser, seedWorkspace } from '../../../test/helpers/seed-rows.js';
import { listPublishedPathsWithEditorName } from './site-authors.js';

describeEachDatabase('site authors repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it("lists published pages with their last editor's name, null where none is known", async () => {
    await seedOrg(db(), 'org-a');
    await seedWorkspace(db(), 'ws-a', 'org-a');
    await seedUser(db(), 'u-1', { name: 'Ada' });
    await seedPage(db(), 'p-1', 'ws-a', 'by-ada.md');
    await seedPage(db(), 'p-2', 'ws-a', 'from-git.md');
    await seedPage(db(), 'p-3', 'ws-a', 'draft.md');
    await db().updateTable('pages').set({ updated_by: 'u-1' }).where('id', 'in', ['p-1', 'p-3']).execute();
    await db().updateTable('pages').set({ status: 'draft' }).where('id', '=', 'p-3').execute();

    const rows = await listPublishedPathsWithEditorName(db(), 'ws-a');
    expect(rows.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'by-ada.md', name: 'Ada' },
      { path: 'from-git.md', name: null },
    ]);
    expect(await listPublishedPathsWithEditorName(db(), 'ws-other')).toEqual([]);
  });
});
