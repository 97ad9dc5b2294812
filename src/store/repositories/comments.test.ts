import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { pageRowOf, SEEDED_AT, seedUsers, seedWorkspaces } from '../../../test/helpers/seed-rows.js';
import * as comments from './comments.js';
import * as pages from './pages.js';

function comment(id: string, fields: Partial<comments.CommentRow> = {}): comments.CommentRow {
  return {
    id,
    workspace_id: 'ws-a',
    page_id: 'p-open',
    parent_id: null,
    author_id: 'u1',
    body: `Body of ${id}`,
    mentions: '[]',
    resolved: 0,
    resolved_by: null,
    resolved_at: null,
    created_at: SEEDED_AT,
    updated_at: SEEDED_AT,
    ...fields,
  };
}

describeEachDatabase('comments repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;
  const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

  it('adds comments and reads them with their page and author', async () => {
    await seedWorkspaces(db(), ['ws-a', 'ws-b']);
    await seedUsers(db(), ['u1', 'u2']);
    await pages.insertRow(db(), pageRowOf('p-open', 'ws-a', 'guide.md'));
    await pages.insertRow(db(), pageRowOf('p-secret', 'ws-a', 'secret.md', { restricted: 1 }));
    await comments.insertComment(db(), comment('c1', { mentions: '["u2"]' }));
    await comments.insertComment(db(), comment('c2', { parent_id: 'c1', author_id: 'u2' }));
    await comments.insertComment(db(), comment('c3', { page_id: 'p-secret' }));
    await comments.insertComment(db(), comment('c4'));
    await comments.insertComment(db(), comment('c5', { parent_id: 'c4' }));

    expect(await comments.findComment(db(), 'c2')).toEqual(
      comment('c2', { parent_id: 'c1', author_id: 'u2' }),
    );
    expect(await comments.findCommentView(db(), 'c2')).toEqual({
      ...comment('c2', { parent_id: 'c1', author_id: 'u2' }),
      page_path: 'guide.md',
      page_restricted: 0,
      author_name: 'Name of u2',
      author_handle: 'u2',
    });
    expect(await comments.findCommentView(db(), 'c-none')).toBeUndefined();
    expect(await comments.findCommentInWorkspace(db(), 'ws-a', 'c2')).toEqual({
      id: 'c2',
      parent_id: 'c1',
      page_id: 'p-open',
    });
    expect(await comments.findCommentInWorkspace(db(), 'ws-b', 'c2')).toBeUndefined();
  });

  it('lists thread roots by page, restriction and cursor, and the replies of threads', async () => {
    const roots = (options: {
      pageId?: string;
      unrestrictedOnly?: boolean;
      after?: string;
      limit?: number;
    }) =>
      comments.listThreadRoots(db(), 'ws-a', { unrestrictedOnly: false, limit: 10, ...options }).then(ids);
    expect(await roots({})).toEqual(['c1', 'c3', 'c4']);
    expect(await roots({ unrestrictedOnly: true })).toEqual(['c1', 'c4']);
    expect(await roots({ pageId: 'p-secret' })).toEqual(['c3']);
    expect(await roots({ after: 'c1', limit: 1 })).toEqual(['c3']);
    expect(ids(await comments.listReplies(db(), ['c1', 'c4']))).toEqual(['c2', 'c5']);
    expect(await comments.listReplies(db(), [])).toEqual([]);
  });

  it('resolves a thread, edits a body and deletes a thread with its replies', async () => {
    await comments.setResolution(db(), 'c1', {
      resolved: 1,
      resolved_by: 'u2',
      resolved_at: '2026-02-01T00:00:00.000Z',
    });
    expect(await comments.findComment(db(), 'c1')).toMatchObject({ resolved: 1, resolved_by: 'u2' });
    await comments.updateBody(db(), 'c2', {
      body: 'Edited',
      mentions: '["u1"]',
      updated_at: '2026-02-02T00:00:00.000Z',
    });
    expect(await comments.findComment(db(), 'c2')).toMatchObject({
      body: 'Edited',
      mentions: '["u1"]',
      updated_at: '2026-02-02T00:00:00.000Z',
    });
    await comments.deleteWithReplies(db(), 'c4');
    expect(await comments.findComment(db(), 'c4')).toBeUndefined();
    expect(await comments.findComment(db(), 'c5')).toBeUndefined();
    await comments.deleteWithReplies(db(), 'c2');
    expect(await comments.findComment(db(), 'c1')).toBeDefined();
    expect(await comments.findComment(db(), 'c2')).toBeUndefined();
  });

  it('finds the users comments mention, by id and by handle', async () => {
    expect(await comments.listMentionedUsers(db(), ['u2', 'u-none'])).toEqual([
      { id: 'u2', name: 'Name of u2', handle: 'u2' },
    ]);
    expect(await comments.listMentionedUsers(db(), [])).toEqual([]);
    expect((await comments.findUserIdsByHandles(db(), ['u1', 'u2', 'nobody'])).sort()).toEqual(['u1', 'u2']);
    expect(await comments.findUserIdsByHandles(db(), [])).toEqual([]);
  });
});
