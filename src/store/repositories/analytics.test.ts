import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { seedOrg, seedWorkspace } from '../../../test/helpers/seed-rows.js';
import * as analytics from './analytics.js';

let seq = 0;
const view = (path: string, visitor: string, day: string, workspaceId = 'ws-a') => ({
  id: `v-${++seq}`,
  workspace_id: workspaceId,
  path,
  visitor,
  day,
  created_at: `${day}T12:00:00.000Z`,
});
const search = (query: string, results: number, day: string) => ({
  id: `s-${++seq}`,
  workspace_id: 'ws-a',
  query,
  results,
  visitor: 'x',
  day,
  created_at: `${day}T12:00:00.000Z`,
});

describeEachDatabase('analytics repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('keeps one salt per day whoever stores it first, and drops older days', async () => {
    await seedOrg(db(), 'org-a');
    expect(await analytics.findOrgPlan(db(), 'org-a')).toBe('free');
    expect(await analytics.findOrgPlan(db(), 'org-x')).toBeUndefined();

    expect(await analytics.takeDaySalt(db(), '2026-05-01', 'first')).toBe('first');
    expect(await analytics.takeDaySalt(db(), '2026-05-01', 'second')).toBe('first');
    expect(await analytics.takeDaySalt(db(), '2026-05-02', 'next')).toBe('next');
    await analytics.deleteSaltsBefore(db(), '2026-05-02');
    expect(await analytics.takeDaySalt(db(), '2026-05-01', 'again')).toBe('again');
  });

  it('counts views, visitors and searches since a day, and prunes older rows', async () => {
    await seedWorkspace(db(), 'ws-a', 'org-a');
    await seedWorkspace(db(), 'ws-b', 'org-a');
    for (const row of [
      view('a.md', 'v1', '2026-05-01'),
      view('a.md', 'v1', '2026-05-02'),
      view('a.md', 'v2', '2026-05-02'),
      view('b.md', 'v3', '2026-05-02'),
      view('old.md', 'v1', '2026-04-01'),
      view('a.md', 'v9', '2026-05-02', 'ws-b'),
    ]) {
      await analytics.insertPageView(db(), row);
    }
    for (const row of [
      search('setup', 3, '2026-05-01'),
      search('setup', 0, '2026-05-02'),
      search('billing', 0, '2026-05-02'),
      search('billing', 0, '2026-05-02'),
      search('ancient', 0, '2026-04-01'),
    ]) {
      await analytics.insertSiteSearch(db(), row);
    }

    const since = '2026-05-01';
    expect(await analytics.topViewedPaths(db(), 'ws-a', since, 10)).toEqual([
      { path: 'a.md', views: 3, visitors: 2 },
      { path: 'b.md', views: 1, visitors: 1 },
    ]);
    expect(await analytics.topViewedPaths(db(), 'ws-a', since, 1)).toHaveLength(1);
    expect(await analytics.viewTotals(db(), 'ws-a', since)).toEqual({ views: 4, visitors: 3 });
    expect(await analytics.dailyViews(db(), 'ws-a', since)).toEqual([
      { day: '2026-05-01', views: 1, visitors: 1 },
      { day: '2026-05-02', views: 3, visitors: 3 },
    ]);
    expect(await analytics.countSearches(db(), 'ws-a', since)).toBe(4);
    // Equal counts are ordered by the query.
    expect(await analytics.topSearches(db(), 'ws-a', since, { limit: 10, onlyNoResults: false })).toEqual([
      { query: 'billing', count: 2, no_results: 2 },
      { query: 'setup', count: 2, no_results: 1 },
    ]);
    expect(await analytics.topSearches(db(), 'ws-a', since, { limit: 10, onlyNoResults: true })).toEqual([
      { query: 'billing', count: 2, no_results: 2 },
      { query: 'setup', count: 1, no_results: 1 },
    ]);

    expect(await analytics.deleteAnalyticsBefore(db(), since)).toBe(2);
    expect(await analytics.viewTotals(db(), 'ws-a', '2000-01-01')).toEqual({ views: 4, visitors: 3 });
    expect(await analytics.countSearches(db(), 'ws-a', '2000-01-01')).toBe(4);
  });
});
