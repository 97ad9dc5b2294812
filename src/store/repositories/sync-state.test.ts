import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { seedWorkspaces } from '../../../test/helpers/seed-rows.js';
import type { SyncConflictRow } from '../schema.js';
import * as syncState from './sync-state.js';

function conflictRow(id: string, fields: Partial<SyncConflictRow> = {}): SyncConflictRow {
  return {
    id,
    workspace_id: 'ws-a',
    path: `${id}.md`,
    page_id: `page-${id}`,
    ours_hash: 'sha256:ours',
    theirs_hash: 'sha256:theirs',
    stamp: '20260102T030405Z',
    created_at: '2026-01-02T03:04:05.000Z',
    resolved_at: null,
    resolved_by: null,
    resolution: null,
    ...fields,
  };
}

describeEachDatabase('sync state repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('records conflicts, lists the open ones oldest first and finds them by id or stamp', async () => {
    await seedWorkspaces(db(), ['ws-a', 'ws-b']);
    const later = conflictRow('c2', { created_at: '2026-01-03T00:00:00.000Z' });
    const first = conflictRow('c1');
    await syncState.insertConflict(db(), later);
    await syncState.insertConflict(db(), first);
    await syncState.insertConflict(db(), conflictRow('c3', { workspace_id: 'ws-b' }));

    expect(await syncState.listOpenConflicts(db(), 'ws-a')).toEqual([first, later]);
    expect(await syncState.findConflict(db(), 'ws-a', 'c1')).toEqual(first);
    expect(await syncState.findConflict(db(), 'ws-b', 'c1')).toBeUndefined();
    expect(await syncState.findConflictByStamp(db(), 'page-c2', '20260102T030405Z')).toEqual(later);
    expect(await syncState.isConflictStampTaken(db(), 'page-c1', '20260102T030405Z')).toBe(true);
    expect(await syncState.isConflictStampTaken(db(), 'page-c1', '20260102T030406Z')).toBe(false);
  });

  it('closes conflicts and finds the remote side of the latest user resolution of a path', async () => {
    expect(await syncState.findLatestResolvedTheirsHash(db(), 'ws-a', 'c1.md', ['ours'])).toBeUndefined();
    await syncState.closeConflict(db(), 'c1', {
      resolved_at: '2026-01-04T00:00:00.000Z',
      resolved_by: null,
      resolution: 'ours',
    });
    expect(await syncState.findConflict(db(), 'ws-a', 'c1')).toMatchObject({
      resolved_at: '2026-01-04T00:00:00.000Z',
      resolution: 'ours',
    });
    expect((await syncState.listOpenConflicts(db(), 'ws-a')).map((c) => c.id)).toEqual(['c2']);
    expect(await syncState.findLatestResolvedTheirsHash(db(), 'ws-a', 'c1.md', ['ours', 'theirs'])).toBe(
      'sha256:theirs',
    );
    expect(await syncState.findLatestResolvedTheirsHash(db(), 'ws-a', 'c1.md', ['manual'])).toBeUndefined();

    await syncState.insertConflict(
      db(),
      conflictRow('c4', { path: 'c1.md', page_id: 'page-c1', stamp: '20260105T000000Z', theirs_hash: null }),
    );
    await syncState.closeConflict(db(), 'c4', {
      resolved_at: '2026-01-05T00:00:00.000Z',
      resolved_by: null,
      resolution: 'theirs',
    });
    expect(
      await syncState.findLatestResolvedTheirsHash(db(), 'ws-a', 'c1.md', ['ours', 'theirs']),
    ).toBeNull();
    // Open: c2 in ws-a and c3 in ws-b.
    expect(await syncState.countOpenConflicts(db())).toBe(2);
  });

  it('keeps one sync record per workspace: credentials, results and summaries', async () => {
    expect(await syncState.findSyncCredentials(db(), 'ws-a')).toBeUndefined();
    await syncState.upsertSyncRecord(db(), 'ws-a', {
      git_username: 'ada',
      git_password: 'sealed',
      credentials_updated_at: '2026-01-02T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
    });
    await syncState.upsertSyncRecord(db(), 'ws-a', {
      last_sync_at: '2026-01-03T00:00:00.000Z',
      last_error: null,
      updated_at: '2026-01-03T00:00:00.000Z',
    });
    await syncState.upsertSyncRecord(db(), 'ws-b', {
      last_error: 'refused',
      updated_at: '2026-01-03T00:00:00.000Z',
    });
    expect(await syncState.findSyncCredentials(db(), 'ws-a')).toEqual({
      git_username: 'ada',
      git_password: 'sealed',
    });

    const summaries = await syncState.listSyncSummaryRows(db(), ['ws-a', 'ws-b', 'ws-none']);
    expect(summaries.sort((x, y) => x.workspace_id.localeCompare(y.workspace_id))).toEqual([
      {
        workspace_id: 'ws-a',
        last_sync_at: '2026-01-03T00:00:00.000Z',
        last_error: null,
        git_username: 'ada',
        git_password: 'sealed',
      },
      {
        workspace_id: 'ws-b',
        last_sync_at: null,
        last_error: 'refused',
        git_username: null,
        git_password: null,
      },
    ]);
    expect(await syncState.listSyncSummaryRows(db(), [])).toEqual([]);

    await syncState.clearSyncCredentials(db(), 'ws-a', '2026-01-06T00:00:00.000Z');
    expect(await syncState.findSyncCredentials(db(), 'ws-a')).toEqual({
      git_username: null,
      git_password: null,
    });
    const [after] = await syncState.listSyncSummaryRows(db(), ['ws-a']);
    expect(after).toMatchObject({ last_sync_at: '2026-01-03T00:00:00.000Z' });
  });
});
