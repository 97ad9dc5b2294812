import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { seedWorkspaces } from '../../../test/helpers/seed-rows.js';
import { findPageIdOnceAt } from './activity.js';
import { deleteAliasesOfPages, replaceAlias } from './page-aliases.js';

describeEachDatabase('page aliases on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;
  const at = '2026-01-02T00:00:00.000Z';
  const aliased = (path: string) => findPageIdOnceAt(db(), 'ws-a', path);

  it('keeps one alias per old path, and drops the alias of a path that is a page again', async () => {
    await seedWorkspaces(db(), ['ws-a']);
    await replaceAlias(db(), 'ws-a', { pageId: 'p1', from: 'a.md', to: 'b.md', at });
    expect(await aliased('a.md')).toBe('p1');
    // p2 now takes a.md's old place as its own old path, and p1 moves back to a.md.
    await replaceAlias(db(), 'ws-a', { pageId: 'p2', from: 'a.md', to: 'c.md', at });
    expect(await aliased('a.md')).toBe('p2');
    await replaceAlias(db(), 'ws-a', { pageId: 'p1', from: 'b.md', to: 'a.md', at });
    expect(await aliased('a.md')).toBeUndefined();
    expect(await aliased('b.md')).toBe('p1');
  });

  it('deletes the aliases of pages that are gone', async () => {
    await replaceAlias(db(), 'ws-a', { pageId: 'p3', from: 'd.md', to: 'e.md', at });
    await deleteAliasesOfPages(db(), ['p1', 'p-none']);
    await deleteAliasesOfPages(db(), []);
    expect(await aliased('b.md')).toBeUndefined();
    expect(await aliased('d.md')).toBe('p3');
  });
});
