import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { firstWorkspace, joinWithLink, startCollab } from './collab-helpers.js';

describeEachDatabase('comments ($name)', (target) => {
  let ctx: Awaited<ReturnType<typeof startCollab>>;
  let server: TestServer;
  let owner: TestUser;
  let commenter: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  let ws: { id: string; slug: string };

  beforeAll(async () => {
    ctx = await startCollab(target);
    server = ctx.server;
    owner = await registerUser(server);
    ws = await firstWorkspace(server, owner);
    commenter = await registerUser(server);
    editor = await registerUser(server);
    viewer = await registerUser(server);
    await joinWithLink(server, owner, ws.id, commenter, 'commenter');
    await joinWithLink(server, owner, ws.id, editor, 'editor');
    await joinWithLink(server, owner, ws.id, viewer, 'viewer');
    const page = await server.request('POST', `/api/v1/content/${ws.slug}/guides/setup`, {
      token: owner.token,
      body: { title: 'Setup', body: 'Install it.' },
    });
    expect(page.status).toBe(201);
  });
  afterAll(() => ctx.cleanup());

  const comment = (body: unknown, token: string) =>
    server.request('POST', `/api/v1/workspaces/${ws.id}/comments`, { token, body });
  const list = (page: string, token = owner.token) =>
    server.request('GET', `/api/v1/workspaces/${ws.id}/comments?page=${encodeURIComponent(page)}`, { token });

  it('a commenter may not write pages (403) but may comment (201)', async () => {
    const write = await server.request('POST', `/api/v1/content/${ws.slug}/guides/by-commenter`, {
      token: commenter.token,
      body: { title: 'No' },
    });
    expect(write.status).toBe(403);
    expect(write.body.error).toBe('FORBIDDEN');
    const created = await comment({ page: 'guides/setup.md', body: 'Looks **good**' }, commenter.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      page: 'guides/setup.md',
      body: 'Looks **good**',
      author: { id: commenter.id, handle: commenter.handle },
      parent_id: null,
      mentions: [],
      resolved: false,
    });
    expect(created.body.body_html).toContain('<strong>good</strong>');
    // A viewer reads comments but cannot write one.
    expect((await comment({ page: 'guides/setup.md', body: 'hi' }, viewer.token)).status).toBe(403);
    expect((await list('guides/setup.md', viewer.token)).status).toBe(200);
  });

  it('threads a reply with a mention, resolves and reopens it, and follows the page across a move', async () => {
    const root = await comment({ page: 'guides/setup', body: 'Which version?' }, commenter.token);
    expect(root.status).toBe(201);
    const outsider = await registerUser(server);
    const reply = await comment(
      {
        page: 'guides/setup.md',
        parent_id: root.body.id,
        body: `@${commenter.handle} the latest; cc @${outsider.handle} and \`@${editor.handle}\` in code, mail a@b.example`,
      },
      editor.token,
    );
    expect(reply.status).toBe(201);
    expect(reply.body.parent_id).toBe(root.body.id);
    // Only members of the workspace are mentions; code spans and emails are not.
    expect(reply.body.mentions).toEqual([
      { id: commenter.id, name: expect.any(String), handle: commenter.handle },
    ]);

    // A reply to the reply joins the same thread.
    const nested = await comment(
      { page: 'guides/setup.md', parent_id: reply.body.id, body: 'ok' },
      owner.token,
    );
    expect(nested.body.parent_id).toBe(root.body.id);

    const threads = (await list('guides/setup.md')).body;
    const thread = threads.data.find((t: { id: string }) => t.id === root.body.id);
    expect(thread.replies.map((r: { id: string }) => r.id)).toEqual([reply.body.id, nested.body.id]);
    expect(threads.next_cursor).toBeNull();

    // Resolving needs the editor role; resolving a reply resolves its thread.
    expect(
      (await server.request('POST', `/api/v1/comments/${root.body.id}/resolve`, { token: commenter.token }))
        .status,
    ).toBe(403);
    const resolved = await server.request('POST', `/api/v1/comments/${reply.body.id}/resolve`, {
      token: editor.token,
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ id: root.body.id, resolved: true });
    expect(
      (await list('guides/setup.md')).body.data.find((t: { id: string }) => t.id === root.body.id).resolved,
    ).toBe(true);
    const reopened = await server.request('POST', `/api/v1/comments/${root.body.id}/unresolve`, {
      token: editor.token,
    });
    expect(reopened.body.resolved).toBe(false);

    const activity = await server.request(
      'GET',
      `/api/v1/workspaces/${ws.id}/activity?action=comment_created,comment_resolved`,
      {
        token: owner.token,
      },
    );
    const actions = activity.body.data.map((a: { action: string }) => a.action);
    expect(actions).toContain('comment_resolved');
    expect(actions).toContain('comment_created');

    const moved = await server.request('PATCH', `/api/v1/content/${ws.slug}/guides/setup.md`, {
      token: owner.token,
      body: { new_path: 'guides/install.md' },
    });
    expect(moved.status).toBe(200);
    const after = (await list('guides/install.md')).body.data.find(
      (t: { id: string }) => t.id === root.body.id,
    );
    expect(after.page).toBe('guides/install.md');
    expect(after.replies).toHaveLength(2);
    // The old path still finds the thread (through the page's alias).
    const viaOld = await list('guides/setup.md');
    expect(viaOld.status).toBe(200);
    expect(viaOld.body.data.find((t: { id: string }) => t.id === root.body.id).page).toBe(
      'guides/install.md',
    );
  });

  it('renders bodies safely and validates input', async () => {
    const xss = await comment(
      {
        page: 'guides/install.md',
        body: '<script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>',
      },
      commenter.token,
    );
    expect(xss.status).toBe(201);
    // Markup arrives as text: no live tag, no handler attribute, no javascript: link.
    expect(xss.body.body_html).not.toMatch(/<script|<img|<[^>]*\bon\w+=|href="javascript:/i);
    expect(xss.body.body_html).toContain('&lt;script&gt;');
    expect(xss.body.body).toContain('<script>');

    const missing = await comment({ page: 'no/such/page.md', body: 'hi' }, commenter.token);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('NOT_FOUND');
    expect((await comment({ page: 'guides/install.md', body: '   ' }, commenter.token)).status).toBe(400);
    expect((await comment({ page: 'guides/install.md' }, commenter.token)).status).toBe(400);
    expect((await comment({ page: '../etc/passwd', body: 'x' }, commenter.token)).status).toBe(400);
    const wrongParent = await comment(
      { page: 'guides/install.md', body: 'x', parent_id: 'nope' },
      commenter.token,
    );
    expect(wrongParent.status).toBe(400);
    expect(wrongParent.body.details.field).toBe('parent_id');
  });

  it('lets authors edit, authors and admins delete, and hides everything from outsiders', async () => {
    const mine = await comment({ page: 'guides/install.md', body: 'first draft' }, commenter.token);
    const edit = (token: string) =>
      server.request('PUT', `/api/v1/comments/${mine.body.id}`, {
        token,
        body: { body: `edited @${editor.handle}` },
      });
    expect((await edit(editor.token)).status).toBe(403);
    expect((await edit(owner.token)).status).toBe(403);
    const edited = await edit(commenter.token);
    expect(edited.status).toBe(200);
    expect(edited.body.body).toBe(`edited @${editor.handle}`);
    expect(edited.body.mentions.map((m: { id: string }) => m.id)).toEqual([editor.id]);

    const outsider = await registerUser(server);
    for (const [method, path] of [
      ['PUT', `/api/v1/comments/${mine.body.id}`],
      ['DELETE', `/api/v1/comments/${mine.body.id}`],
      ['POST', `/api/v1/comments/${mine.body.id}/resolve`],
      ['GET', `/api/v1/workspaces/${ws.id}/comments`],
    ] as const) {
      const res = await server.request(method, path, {
        token: outsider.token,
        body: method === 'PUT' ? { body: 'x' } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(
      (await server.request('DELETE', `/api/v1/comments/${mine.body.id}`, { token: editor.token })).status,
    ).toBe(403);
    expect(
      (await server.request('DELETE', `/api/v1/comments/${mine.body.id}`, { token: commenter.token })).status,
    ).toBe(204);
    const other = await comment({ page: 'guides/install.md', body: 'moderate me' }, commenter.token);
    expect(
      (await server.request('DELETE', `/api/v1/comments/${other.body.id}`, { token: owner.token })).status,
    ).toBe(204);
    expect(
      (
        await server.request('PUT', `/api/v1/comments/${other.body.id}`, {
          token: commenter.token,
          body: { body: 'x' },
        })
      ).status,
    ).toBe(404);
  });

  it('pages through threads with limit and cursor', async () => {
    await server.request('POST', `/api/v1/content/${ws.slug}/paged`, {
      token: owner.token,
      body: { title: 'Paged' },
    });
    for (let i = 0; i < 3; i++) await comment({ page: 'paged.md', body: `n${i}` }, commenter.token);
    const first = await server.request('GET', `/api/v1/workspaces/${ws.id}/comments?page=paged.md&limit=2`, {
      token: owner.token,
    });
    expect(first.body.data.map((c: { body: string }) => c.body)).toEqual(['n0', 'n1']);
    const second = await server.request(
      'GET',
      `/api/v1/workspaces/${ws.id}/comments?page=paged.md&limit=2&cursor=${first.body.next_cursor}`,
      { token: owner.token },
    );
    expect(second.body.data.map((c: { body: string }) => c.body)).toEqual(['n2']);
    expect(second.body.next_cursor).toBeNull();
    expect(
      (await server.request('GET', `/api/v1/workspaces/${ws.id}/comments?limit=0`, { token: owner.token }))
        .status,
    ).toBe(400);
  });
});
