import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { documentRowOf } from '../../../test/helpers/seed-rows.js';
import {
  deleteDocumentRows,
  deleteWorkspaceDocumentRows,
  findDocumentRow,
  upsertDocumentRows,
} from './documents.js';

describeEachDatabase('search_documents rows on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('inserts rows, replaces a page’s row on a second upsert and finds it', async () => {
    await upsertDocumentRows(db(), [documentRowOf('p1'), documentRowOf('p2', { workspace_id: 'ws-b' })]);
    const changed = documentRowOf('p1', { title: 'Renamed', tags: 'ops', body: 'new body', restricted: 1 });
    await upsertDocumentRows(db(), [changed]);
    expect(await findDocumentRow(db(), 'p1')).toEqual(changed);
    expect(await findDocumentRow(db(), 'p2')).toMatchObject({ workspace_id: 'ws-b' });
    expect(await findDocumentRow(db(), 'p-none')).toBeUndefined();
  });

  it('deletes pages’ rows, and all rows of one workspace', async () => {
    await upsertDocumentRows(db(), [documentRowOf('p3'), documentRowOf('p4', { workspace_id: 'ws-b' })]);
    await deleteDocumentRows(db(), ['p1', 'p3']);
    await deleteDocumentRows(db(), []);
    expect(await findDocumentRow(db(), 'p1')).toBeUndefined();
    expect(await findDocumentRow(db(), 'p3')).toBeUndefined();
    await deleteWorkspaceDocumentRows(db(), 'ws-b');
    expect(await findDocumentRow(db(), 'p2')).toBeUndefined();
    expect(await findDocumentRow(db(), 'p4')).toBeUndefined();
  });
});
