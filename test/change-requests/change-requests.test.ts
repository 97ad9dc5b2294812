import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runGit } from '../../src/git/git.js';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import { grantRole } from '../helpers/workspace-access.js';
import { rawRequest } from '../content/content-helpers.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { eventually, type SyncEnv, startSync, treeOf } from '../sync/sync-helpers.js';
import { caller, contentUrl, crUrl, editInRequest, openRequest } from './cr-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

describeEachDatabase('change requests over HTTP and git ($name)', (target: DatabaseTarget) => {
  let env: SyncEnv;
  afterEach(async () => {
    await env?.cleanup();
  });

  /** A public workspace with two published pages, and an editor besides its owner. */
  async function seeded() {
    env = await startSync(target, { gitCommitDebounceMs: 0 });
    const owner = env.owner;
    const as = caller(env, owner);
    const created = await as('POST', '/api/v1/workspaces', {
      name: 'Handbook',
      slug: `hb-${Date.now() % 1e8}`,
    });
    expect(created.status).toBe(201);
    const ws = created.body;
    expect(
      (await as('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, { public_site: true })).status,
    ).toBe(200);
    for (const [p, title] of [
      ['guide.md', 'Guide'],
      ['faq.md', 'FAQ'],
    ] as const) {
      const res = await as('POST', contentUrl(ws.slug, p), {
        title,
        body: 'line one\nline two\nline three\n',
        publish: true,
      });
      expect(res.status).toBe(201);
    }
    const editor = await registerUser(env.server, { name: 'Eddie Editor' });
    await grantRole(env.server, ws, editor, 'editor');
    return { ws, owner, editor };
  }

  const searchFor = async (user: TestUser, wsId: string, q: string) =>
    (await caller(env, user)('GET', `/api/v1/workspaces/${wsId}/search?q=${encodeURIComponent(q)}`)).body;

  it('keeps edits to two pages off the live API, search and site until merged, then shows them', async () => {
    const { ws, owner, editor } = await seeded();
    const cr = await openRequest(env, editor, ws.id);
    expect(cr).toMatchObject({ number: 1, status: 'open', branch: 'folio/cr/1', author: editor.id });

    await editInRequest(env, editor, ws.slug, 1, 'guide.md', 'line one\nzebracorn rewritten\nline three\n');
    await editInRequest(env, editor, ws.slug, 1, 'faq.md', 'quokkaquestion answered\n');
    const added = await caller(env, editor)('POST', contentUrl(ws.slug, 'new/setup.md', 1), {
      title: 'Setup',
      body: 'Install it.\n',
      publish: true,
    });
    expect(added.status, added.text).toBe(201);

    // Inside the request the edits are there; the live workspace shows none of them.
    const inside = await caller(env, editor)('GET', contentUrl(ws.slug, 'guide.md', 1));
    expect(inside.body.content).toContain('zebracorn');
    const live = await caller(env, editor)('GET', contentUrl(ws.slug, 'guide.md'));
    expect(live.body.content).not.toContain('zebracorn');
    expect((await caller(env, editor)('GET', contentUrl(ws.slug, 'new/setup.md'))).status).toBe(404);
    expect((await searchFor(editor, ws.id, 'zebracorn')).total).toBe(0);
    expect((await env.server.request('GET', `/p/${ws.slug}/guide`)).text).not.toContain('zebracorn');
    expect(fs.readFileSync(path.join(treeOf(env, ws.id), 'guide.md'), 'utf8')).not.toContain('zebracorn');
    const tree = await caller(env, editor)('GET', `/api/v1/content/${ws.slug}/tree`);
    expect(JSON.stringify(tree.body)).not.toContain('setup.md');

    // The request lists what it changes, with a diff against the live branch.
    const detail = await caller(env, owner)('GET', crUrl(ws.id, '/1'));
    expect(detail.status).toBe(200);
    expect(detail.body.pages.map((p: any) => [p.path, p.change])).toEqual([
      ['faq.md', 'updated'],
      ['guide.md', 'updated'],
      ['new/setup.md', 'created'],
    ]);
    expect(detail.body.diff).toContain('+zebracorn rewritten');
    expect(detail.body.pages[1].diff).toContain('-line two');

    const merged = await caller(env, owner)('POST', crUrl(ws.id, '/1/merge'));
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body).toMatchObject({ status: 'merged', merged_by: owner.id });

    expect((await caller(env, editor)('GET', contentUrl(ws.slug, 'guide.md'))).body.content).toContain(
      'zebracorn',
    );
    expect((await caller(env, editor)('GET', contentUrl(ws.slug, 'new/setup.md'))).body.title).toBe('Setup');
    expect((await searchFor(editor, ws.id, 'quokkaquestion')).total).toBe(1);
    expect((await env.server.request('GET', `/p/${ws.slug}/guide`)).text).toContain('zebracorn');
    // The live branch has the merge commit; the request's worktree and branch are gone.
    const log = await runGit(treeOf(env, ws.id), ['log', '-1', '--format=%s', 'HEAD']);
    expect(log.stdout.trim()).toBe('Merge change request #1: Rework the guide');
    const feed = await caller(env, owner)('GET', `/api/v1/workspaces/${ws.id}/activity?limit=50`);
    const actions = feed.body.data.map((a: any) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['change_request_opened', 'change_request_merged']));
    expect(env.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['change-request-opened', 'change-request-merged', 'bulk-sync']),
    );
    const list = await caller(env, editor)('GET', crUrl(ws.id, '?status=merged'));
    expect(list.body).toMatchObject({ data: [{ number: 1, status: 'merged' }], next_cursor: null });
    expect((await caller(env, editor)('GET', crUrl(ws.id, '?status=open'))).body.data).toEqual([]);
  }, 120_000);

  it('moves and deletes pages inside a request; the live pages follow only at the merge', async () => {
    const { ws, owner, editor } = await seeded();
    const before = await caller(env, owner)('GET', contentUrl(ws.slug, 'guide.md'));
    const linking = 'See [[guide]] and [the guide](guide.md).\n';
    await caller(env, owner)('POST', contentUrl(ws.slug, 'index.md'), { title: 'Index', body: linking });
    await openRequest(env, editor, ws.id);
    const moved = await caller(env, editor)('PATCH', contentUrl(ws.slug, 'guide.md', 1), {
      new_path: 'guides/start.md',
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ path: 'guides/start.md', page_id: before.body.page_id });
    // Links to the moved page follow it inside the request, as a live move rewrites them.
    expect((await caller(env, editor)('GET', contentUrl(ws.slug, 'index.md', 1))).body.content).toBe(
      'See [[guides/start]] and [the guide](guides/start.md).\n',
    );
    expect((await caller(env, editor)('GET', contentUrl(ws.slug, 'index.md'))).body.content).toBe(linking);
    const gone = await caller(env, editor)('DELETE', contentUrl(ws.slug, 'faq.md', 1));
    expect(gone.status).toBe(204);
    expect((await caller(env, editor)('GET', contentUrl(ws.slug, 'faq.md', 1))).status).toBe(404);
    expect((await caller(env, editor)('GET', contentUrl(ws.slug, 'faq.md'))).status).toBe(200);
    expect((await caller(env, editor)('GET', contentUrl(ws.slug, 'guide.md'))).status).toBe(200);

    // Who may do what inside a request follows the content API's roles.
    const viewer = await registerUser(env.server, { name: 'Vera Viewer' });
    await grantRole(env.server, ws, viewer, 'viewer');
    expect((await caller(env, viewer)('GET', contentUrl(ws.slug, 'guides/start.md', 1))).status).toBe(200);
    const refused = await caller(env, viewer)('POST', contentUrl(ws.slug, 'x.md', 1), { title: 'X' });
    expect(refused.status).toBe(403);
    const stranger = await registerUser(env.server, { name: 'Sam Stranger' });
    expect((await caller(env, stranger)('GET', contentUrl(ws.slug, 'guides/start.md', 1))).status).toBe(404);
    expect((await caller(env, stranger)('GET', crUrl(ws.id, '/1'))).status).toBe(404);
    expect((await caller(env, editor)('GET', contentUrl(ws.slug, 'guide.md', 99))).status).toBe(404);
    const bad = await caller(env, editor)('GET', `/api/v1/content/${ws.slug}/guide.md?change_request=abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('VALIDATION_ERROR');
    for (const evil of ['../../escape.md', '%2e%2e/%2e%2e/escape.md']) {
      const escape = await rawRequest(
        env.server,
        'PUT',
        `/api/v1/content/${ws.slug}/${evil}?change_request=1`,
        {
          token: editor.token,
          body: { body: 'x' },
        },
      );
      expect(escape.status, evil).toBe(400);
    }
    expect(fs.existsSync(path.join(env.server.dataDir, 'meta', ws.id, 'escape.md'))).toBe(false);

    const detail = await caller(env, editor)('GET', crUrl(ws.id, '/1'));
    expect(detail.body.pages.map((p: any) => [p.path, p.change, p.old_path])).toEqual([
      ['faq.md', 'deleted', null],
      ['guides/start.md', 'moved', 'guide.md'],
      ['index.md', 'updated', null],
    ]);
    expect((await caller(env, owner)('POST', crUrl(ws.id, '/1/merge'))).status).toBe(200);
    const after = await caller(env, owner)('GET', contentUrl(ws.slug, 'guides/start.md'));
    expect(after.body.page_id).toBe(before.body.page_id);
    expect((await caller(env, owner)('GET', contentUrl(ws.slug, 'index.md'))).body.content).toContain(
      '[[guides/start]]',
    );
    expect((await caller(env, owner)('GET', contentUrl(ws.slug, 'faq.md'))).status).toBe(404);
  }, 120_000);

  it('refuses self-approval and enforces the required approvals for editors', async () => {
    const { ws, owner, editor } = await seeded();
    const set = await caller(env, owner)('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, {
      required_approvals: 1,
    });
    expect(set.body.required_approvals).toBe(1);
    for (const wrong of [6, -1, 1.5, '2']) {
      const refused = await caller(env, owner)('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, {
        required_approvals: wrong,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('VALIDATION_ERROR');
    }
    await openRequest(env, editor, ws.id);
    await editInRequest(env, editor, ws.slug, 1, 'guide.md', 'line one\nchanged\nline three\n');

    const self = await caller(env, editor)('POST', crUrl(ws.id, '/1/reviews'), {
      verdict: 'approve',
      body: 'lgtm',
    });
    expect(self.status).toBe(403);
    expect(self.body.details).toMatchObject({ reason: 'self_approval' });

    const early = await caller(env, editor)('POST', crUrl(ws.id, '/1/merge'));
    expect(early.status).toBe(403);
    expect(early.body.details).toMatchObject({
      reason: 'approvals_required',
      approvals: 0,
      required_approvals: 1,
    });

    const second = await registerUser(env.server, { name: 'Rita Reviewer' });
    await grantRole(env.server, ws, second, 'editor');
    const review = await caller(env, second)('POST', crUrl(ws.id, '/1/reviews'), {
      verdict: 'approve',
      body: 'Looks right',
      comments: [{ page: 'guide.md', line: 2, body: 'Nice wording' }],
    });
    expect(review.status, review.text).toBe(201);
    const stray = await caller(env, second)('POST', crUrl(ws.id, '/1/reviews'), {
      verdict: 'comment',
      body: '',
      comments: [{ page: 'faq.md', line: 1, body: 'Not in this request' }],
    });
    expect(stray.status).toBe(400);

    const detail = await caller(env, editor)('GET', crUrl(ws.id, '/1'));
    expect(detail.body.approvals).toBe(1);
    expect(detail.body.reviews).toEqual([
      expect.objectContaining({
        verdict: 'approve',
        reviewer: second.id,
        reviewer_name: 'Rita Reviewer',
        comments: [{ page: 'guide.md', line: 2, body: 'Nice wording' }],
      }),
    ]);
    const merged = await caller(env, editor)('POST', crUrl(ws.id, '/1/merge'));
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.status).toBe('merged');
  }, 120_000);

  it('reports a conflict with a live edit to the same lines per page and changes nothing', async () => {
    const { ws, owner, editor } = await seeded();
    await openRequest(env, editor, ws.id);
    await editInRequest(env, editor, ws.slug, 1, 'guide.md', 'line one\nfrom the request\nline three\n');
    const live = await caller(env, owner)('GET', contentUrl(ws.slug, 'guide.md'));
    const liveEdit = await caller(env, owner)('PUT', contentUrl(ws.slug, 'guide.md'), {
      body: 'line one\nedited live\nline three\n',
      lastKnownHash: live.body.content_hash,
    });
    expect(liveEdit.status).toBe(200);
    const tree = treeOf(env, ws.id);
    // Once the live edit is committed, nothing but the merge would move the live branch.
    await eventually(async () =>
      (await runGit(tree, ['log', '-1', '--format=%s'])).stdout.startsWith('docs: update'),
    );
    const before = (await runGit(tree, ['rev-parse', 'HEAD'])).stdout.trim();

    const merge = await caller(env, owner)('POST', crUrl(ws.id, '/1/merge'));
    expect(merge.status).toBe(409);
    expect(merge.body.details.reason).toBe('merge_conflict');
    expect(merge.body.details.conflicts).toEqual([
      expect.objectContaining({
        path: 'guide.md',
        page_id: live.body.page_id,
        ours: expect.stringContaining('edited live'),
        theirs: expect.stringContaining('from the request'),
        base: expect.stringContaining('line two'),
      }),
    ]);
    // Nothing changed: not the live page, not the branch's head, not the request.
    expect((await runGit(tree, ['rev-parse', 'HEAD'])).stdout.trim()).toBe(before);
    expect((await runGit(tree, ['status', '--porcelain', '--untracked-files=no'])).stdout).toBe('');
    expect((await caller(env, owner)('GET', contentUrl(ws.slug, 'guide.md'))).body.content).toContain(
      'edited live',
    );
    expect((await caller(env, owner)('GET', crUrl(ws.id, '/1'))).body.status).toBe('open');
  }, 120_000);

  it('closing a request deletes its branch and worktree', async () => {
    const { ws, editor } = await seeded();
    await openRequest(env, editor, ws.id);
    await editInRequest(env, editor, ws.slug, 1, 'guide.md', 'gone soon\n');
    const tree = treeOf(env, ws.id);
    const worktree = path.join(env.server.dataDir, 'meta', ws.id, 'change-requests', '1');
    expect(fs.existsSync(worktree)).toBe(true);
    expect(
      (await runGit(tree, ['rev-parse', '--verify', '-q', 'refs/heads/folio/cr/1'], { allowFailure: true }))
        .code,
    ).toBe(0);

    const closed = await caller(env, editor)('POST', crUrl(ws.id, '/1/close'));
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', closed_by: editor.id });
    expect(
      (await runGit(tree, ['rev-parse', '--verify', '-q', 'refs/heads/folio/cr/1'], { allowFailure: true }))
        .code,
    ).not.toBe(0);
    expect(fs.existsSync(worktree)).toBe(false);
    expect((await caller(env, editor)('GET', contentUrl(ws.slug, 'guide.md', 1))).status).toBe(409);
    expect((await caller(env, editor)('POST', crUrl(ws.id, '/1/merge'))).status).toBe(409);
    await eventually(async () => env.events.some((e) => e.type === 'change-request-closed'));
  }, 120_000);
});
