import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { SEEDED_AT, seedUsers, seedWorkspaces } from '../../../test/helpers/seed-rows.js';
import type { ActivityRow } from '../schema.js';
import * as activity from './activity.js';

function entry(id: string, fields: Partial<ActivityRow> = {}): ActivityRow {
  return {
    id,
    workspace_id: 'ws-a',
    action: 'page_updated',
    path: 'guide.md',
    page_id: 'page-1',
    actor_id: null,
    details: '{}',
    created_at: SEEDED_AT,
    ...fields,
  };
}

describeEachDatabase('activity repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;
  const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

  it('adds entries one by one or in a batch and lists them newest first with the actor’s name', async () => {
    await seedWorkspaces(db(), ['ws-a', 'ws-b']);
    await seedUsers(db(), ['u1']);
    await activity.insertActivity(db(), entry('a1', { action: 'page_created', actor_id: 'u1' }));
    await activity.insertActivities(db(), [
      entry('a2', { details: '{"from":"old.md"}', action: 'page_moved' }),
      entry('a3', { path: 'other.md', page_id: 'page-2', actor_id: 'u1' }),
      entry('a4', { workspace_id: 'ws-b' }),
    ]);
    await activity.insertActivities(db(), []);

    const all = await activity.listActivity(db(), 'ws-a', {}, { limit: 10 });
    expect(ids(all)).toEqual(['a3', 'a2', 'a1']);
    expect(all[0]).toEqual({
      ...entry('a3', { path: 'other.md', page_id: 'page-2', actor_id: 'u1' }),
      actor_name: 'Name of u1',
    });
    expect(all[1]).toMatchObject({ actor_name: null, details: '{"from":"old.md"}' });
  });

  it('filters by actions, actor, page (over path) and pages with a cursor', async () => {
    const list = (filter: activity.ActivityFilter, options: { before?: string; limit?: number } = {}) =>
      activity.listActivity(db(), 'ws-a', filter, { limit: 10, ...options }).then(ids);
    expect(await list({ actions: ['page_created', 'page_moved'] })).toEqual(['a2', 'a1']);
    expect(await list({ actorId: 'u1' })).toEqual(['a3', 'a1']);
    expect(await list({ pageId: 'page-1', path: 'other.md' })).toEqual(['a2', 'a1']);
    expect(await list({ path: 'other.md' })).toEqual(['a3']);
    expect(await list({}, { limit: 2 })).toEqual(['a3', 'a2']);
    expect(await list({}, { before: 'a2' })).toEqual(['a1']);
  });

  it('finds the page once at an old path, whether or not it still exists', async () => {
    await db()
      .insertInto('page_aliases')
      .values({ workspace_id: 'ws-a', old_path: 'old.md', page_id: 'page-gone', created_at: SEEDED_AT })
      .execute();
    expect(await activity.findPageIdOnceAt(db(), 'ws-a', 'old.md')).toBe('page-gone');
    expect(await activity.findPageIdOnceAt(db(), 'ws-b', 'old.md')).toBeUndefined();
  });

  it('lists who created pages, oldest entry first, and the details of a page’s moves since a time', async () => {
    await activity.insertActivities(db(), [
      entry('b1', {
        action: 'page_created',
        page_id: 'page-9',
        actor_id: 'u1',
        created_at: '2026-01-01T00:00:00.000Z',
      }),
      entry('b2', {
        action: 'page_created',
        page_id: 'page-9',
        actor_id: null,
        created_at: '2026-01-05T00:00:00.000Z',
      }),
      entry('b3', { action: 'page_created', page_id: 'page-8', workspace_id: 'ws-b' }),
      entry('b4', {
        action: 'page_moved',
        page_id: 'page-9',
        details: '{"to":"x"}',
        created_at: '2026-01-03T00:00:00.000Z',
      }),
      entry('b5', {
        action: 'page_moved',
        page_id: 'page-9',
        details: '{"to":"y"}',
        created_at: '2026-01-04T00:00:00.000Z',
      }),
    ]);
    expect(await activity.listPageCreations(db(), 'ws-a', ['page-9', 'page-8'])).toEqual([
      { page_id: 'page-9', actor_id: 'u1' },
      { page_id: 'page-9', actor_id: null },
    ]);
    expect(await activity.listPageCreations(db(), 'ws-a', [])).toEqual([]);
    expect(
      await activity.listPageMoveDetailsSince(db(), 'ws-a', 'page-9', '2026-01-04T00:00:00.000Z'),
    ).toEqual(['{"to":"y"}']);
    expect(
      await activity.listPageMoveDetailsSince(db(), 'ws-b', 'page-9', '2026-01-01T00:00:00.000Z'),
    ).toEqual([]);
  });
});
