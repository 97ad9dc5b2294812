import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestServices, type TestServices } from '../../../test/helpers/services.js';

describe('comments service', () => {
  let t: TestServices;

  beforeEach(async () => {
    t = await buildTestServices();
  });
  afterEach(() => t.close());

  it('threads replies under their root, resolves members mentioned and ignores other handles', async () => {
    const team = await t.fixtures.team({ commenter: 'commenter', editor: 'editor' });
    const stranger = await t.fixtures.account({ email: 'stranger@example.com' });
    await t.fixtures.page(team.workspace.id, { path: 'guide.md' });
    const comments = t.services.comments;

    const root = await comments.create(team.commenter.actor, team.workspace.id, {
      page: 'guide.md',
      body: `Is this right, @${team.editor.user.handle}? cc @${stranger.user.handle}`,
    });
    expect(root.mentions.map((m) => m.id)).toEqual([team.editor.user.id]);
    expect(root.author.id).toBe(team.commenter.user.id);

    const reply = await comments.create(team.editor.actor, team.workspace.id, {
      page: 'guide.md',
      body: 'Yes.',
      parent_id: root.id,
    });
    // A reply to a reply joins the root's thread.
    const nested = await comments.create(team.commenter.actor, team.workspace.id, {
      page: 'guide.md',
      body: 'Thanks!',
      parent_id: reply.id,
    });
    expect(nested.parent_id).toBe(root.id);

    const { data } = await comments.list(team.commenter.actor, team.workspace.id, {
      page: 'guide.md',
      limit: 50,
    });
    expect(data).toHaveLength(1);
    expect(data[0]!.replies.map((r) => r.body)).toEqual(['Yes.', 'Thanks!']);
  });

  it('lets a commenter comment but only an editor resolve, and hides comments from outsiders', async () => {
    const team = await t.fixtures.team({ viewer: 'viewer', commenter: 'commenter', editor: 'editor' });
    const outsider = await t.fixtures.account();
    await t.fixtures.page(team.workspace.id, { path: 'a.md' });
    const comments = t.services.comments;

    await expect(
      comments.create(team.viewer.actor, team.workspace.id, { page: 'a.md', body: 'Hello' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const comment = await comments.create(team.commenter.actor, team.workspace.id, {
      page: 'a.md',
      body: 'Hello',
    });

    await expect(comments.resolve(team.commenter.actor, comment.id)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect((await comments.resolve(team.editor.actor, comment.id)).resolved).toBe(true);
    expect((await comments.unresolve(team.editor.actor, comment.id)).resolved).toBe(false);

    await expect(comments.list(outsider.actor, team.workspace.id, { limit: 50 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(comments.remove(outsider.actor, comment.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lets only the author edit, and the author or an admin delete a thread with its replies', async () => {
    const team = await t.fixtures.team({ alice: 'commenter', bob: 'commenter', admin: 'admin' });
    await t.fixtures.page(team.workspace.id, { path: 'a.md' });
    const comments = t.services.comments;
    const root = await comments.create(team.alice.actor, team.workspace.id, { page: 'a.md', body: 'First' });
    await comments.create(team.bob.actor, team.workspace.id, {
      page: 'a.md',
      body: 'Reply',
      parent_id: root.id,
    });

    await expect(comments.update(team.bob.actor, root.id, { body: 'Mine now' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(comments.update(team.admin.actor, root.id, { body: 'Mine now' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect((await comments.update(team.alice.actor, root.id, { body: 'First, edited' })).body).toBe(
      'First, edited',
    );
    await expect(comments.remove(team.bob.actor, root.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });

    await comments.remove(team.admin.actor, root.id);
    const left = await t.store.db.selectFrom('comments').select('id').execute();
    expect(left).toEqual([]);
  });

  it('refuses a comment on a page that does not exist, and a reply on another page', async () => {
    const { owner, workspace } = await t.fixtures.team();
    await t.fixtures.page(workspace.id, { path: 'a.md' });
    await t.fixtures.page(workspace.id, { path: 'b.md' });
    const comments = t.services.comments;

    await expect(
      comments.create(owner.actor, workspace.id, { page: 'missing.md', body: 'Hi' }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const onA = await comments.create(owner.actor, workspace.id, { page: 'a.md', body: 'On A' });
    await expect(
      comments.create(owner.actor, workspace.id, { page: 'b.md', body: 'Reply', parent_id: onA.id }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
