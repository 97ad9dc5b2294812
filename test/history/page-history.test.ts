/**
 * Page history through HTTP and the workspace's real git repository: the commits of a page
 * (two authors, a move through Folio), its exact text and diffs at a commit, restoring a
 * version as a new commit, and a deleted page listed and brought back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runGit } from '../../src/git/git.js';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { grantRole } from '../helpers/workspace-access.js';
import {
  commitsOf,
  committed,
  type HistoryEnv,
  historyUrl,
  pageUrl,
  startHistoryEnv,
} from './history-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

const V1 = '# Setup\n\nLine one\nLine two\nLine three\n';
const V2 = '# Setup\n\nLine one\nLine 2 by Eddie\nLine three\n';
const V3 = '# Setup\n\nLine one\nLine 2 by Eddie\nLine three\nLine four\n';

describeEachDatabase('page history ($name)', (target: DatabaseTarget) => {
  let env: HistoryEnv;
  /** The commits of the story below, oldest first, and the file's text after each. */
  const shas: string[] = [];
  const raws: string[] = [];
  let pageId = '';

  const as = (user: TestUser, method: string, url: string, body?: unknown) =>
    env.server.request(method, url, { token: user.token, body });
  const rawAt = (page: string) => fs.readFileSync(path.join(env.repo, page), 'utf8');

  beforeAll(async () => {
    env = await startHistoryEnv(target);
    const { owner, editor } = env;
    // Created by the owner, edited by the editor, then the owner, moved by the editor.
    const created = await committed(env, () =>
      as(owner, 'POST', pageUrl(env, 'guides/setup.md'), { title: 'Setup', body: V1 }),
    );
    pageId = created.res.body.page_id;
    shas.push(created.sha);
    raws.push(rawAt('guides/setup.md'));
    let hash = created.res.body.content_hash;
    for (const [user, body] of [
      [editor, V2],
      [owner, V3],
    ] as const) {
      const saved = await committed(env, () =>
        as(user, 'PUT', pageUrl(env, 'guides/setup.md'), { body, lastKnownHash: hash }),
      );
      hash = saved.res.body.content_hash;
      shas.push(saved.sha);
      raws.push(rawAt('guides/setup.md'));
    }
    const moved = await committed(env, () =>
      as(editor, 'PATCH', pageUrl(env, 'guides/setup.md'), { new_path: 'guides/install.md' }),
    );
    shas.push(moved.sha);
    raws.push(rawAt('guides/install.md'));
  }, 60_000);
  afterAll(async () => {
    await env?.cleanup();
  });

  it('lists the commits of a page across its move, newest first, with their authors', async () => {
    const res = await as(env.owner, 'GET', historyUrl(env, '?page=guides/install.md'));
    expect(res.status).toBe(200);
    // The owner administers the workspace, so sees the authors' emails too.
    const olive = {
      name: 'Olive Owner',
      handle: env.owner.handle,
      email: env.owner.email,
      user_id: env.owner.id,
    };
    const eddie = {
      name: 'Eddie Editor',
      handle: env.editor.handle,
      email: env.editor.email,
      user_id: env.editor.id,
    };
    expect(res.body.data).toEqual([
      {
        commit: shas[3],
        author: eddie,
        message: 'docs: move guides/setup.md to guides/install.md',
        created_at: expect.any(String),
        path_at_commit: 'guides/install.md',
        change: 'moved',
      },
      expect.objectContaining({
        commit: shas[2],
        author: olive,
        path_at_commit: 'guides/setup.md',
        change: 'updated',
      }),
      expect.objectContaining({
        commit: shas[1],
        author: eddie,
        path_at_commit: 'guides/setup.md',
        change: 'updated',
      }),
      expect.objectContaining({
        commit: shas[0],
        author: olive,
        message: 'docs: create Setup',
        path_at_commit: 'guides/setup.md',
        change: 'created',
      }),
    ]);
    expect(res.body.next_cursor).toBeNull();
    expect(Date.parse(res.body.data[0].created_at)).not.toBeNaN();
  });

  it('pages through the history with a cursor, across the move', async () => {
    const first = await as(env.editor, 'GET', historyUrl(env, '?page=guides/install.md&limit=2'));
    expect(first.body.data.map((e: any) => e.commit)).toEqual([shas[3], shas[2]]);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const next = await as(
      env.editor,
      'GET',
      historyUrl(env, `?page=guides/install.md&limit=2&cursor=${first.body.next_cursor}`),
    );
    expect(next.body.data.map((e: any) => e.commit)).toEqual([shas[1], shas[0]]);
    expect(next.body.next_cursor).toBeNull();
    const bad = await as(env.editor, 'GET', historyUrl(env, '?page=guides/install.md&cursor=nonsense'));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('VALIDATION_ERROR');
  });

  it('answers the exact Markdown of the page at a commit, also by a short id', async () => {
    const res = await as(env.owner, 'GET', historyUrl(env, `/${shas[0]}?page=guides/install.md`));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      commit: shas[0],
      page: 'guides/install.md',
      path_at_commit: 'guides/setup.md',
      content: raws[0],
    });
    expect(res.body.content).toContain(V1);
    const short = await as(
      env.owner,
      'GET',
      historyUrl(env, `/${shas[1]!.slice(0, 7)}?page=guides/install.md`),
    );
    expect(short.body).toMatchObject({ commit: shas[1], content: raws[1] });
  });

  it('diffs two commits exactly, as unified text and as lines', async () => {
    const res = await as(
      env.owner,
      'GET',
      historyUrl(env, `/diff?page=guides/install.md&from=${shas[0]}&to=${shas[1]}`),
    );
    expect(res.status).toBe(200);
    const lines = raws[0]!.split('\n');
    const n = lines.indexOf('Line two') + 1;
    const s = n - 3;
    expect(res.body.unified).toBe(
      [
        '--- a/guides/setup.md',
        '+++ b/guides/setup.md',
        `@@ -${s},5 +${s},5 @@`,
        ` ${lines[n - 4]}`,
        ` ${lines[n - 3]}`,
        ` ${lines[n - 2]}`,
        '-Line two',
        '+Line 2 by Eddie',
        ' Line three',
        '',
      ].join('\n'),
    );
    expect(res.body.hunks).toHaveLength(1);
    expect(res.body.hunks[0].lines.filter((l: any) => l.kind !== 'context')).toEqual([
      { kind: 'removed', old_line: n, new_line: null, text: 'Line two' },
      { kind: 'added', old_line: null, new_line: n, text: 'Line 2 by Eddie' },
    ]);
    // Against the page as it is now, at its new path.
    const now = await as(env.owner, 'GET', historyUrl(env, `/diff?page=guides/install.md&from=${shas[2]}`));
    expect(now.body).toMatchObject({
      to: 'current',
      path_from: 'guides/setup.md',
      path_to: 'guides/install.md',
    });
    expect(now.body.hunks).toEqual([]);
    expect(now.body.unified).toBe('');
  });

  it('refuses bad input with 400 and unknown commits or pages with 404', async () => {
    const get = (rest: string) => as(env.owner, 'GET', historyUrl(env, rest));
    const notHex = await get('/not-a-commit?page=guides/install.md');
    expect(notHex.status).toBe(400);
    expect(notHex.body.error).toBe('VALIDATION_ERROR');
    expect((await get('/deadbeef00?page=guides/install.md')).body.error).toBe('NOT_FOUND');
    expect((await get(`/${shas[0]}?page=guides/nothing-here.md`)).status).toBe(404);
    expect((await get('?page=guides/nothing-here.md')).body.error).toBe('NOT_FOUND');
    expect((await get('?page=../../etc/passwd')).status).toBe(400);
    expect((await get('?page=.git/config')).status).toBe(400);
    // `diff` and `deleted` are their own routes, never taken for a commit id.
    const noFrom = await get('/diff?page=guides/install.md');
    expect(noFrom.status).toBe(400);
    expect(JSON.stringify(noFrom.body)).toContain('from');
    expect((await get('/deleted')).status).toBe(200);
    const restore = await as(env.owner, 'POST', historyUrl(env, '/restore'), {
      page: 'guides/install.md',
      commit: 'zzz',
    });
    expect(restore.status).toBe(400);
    // An existing page is restored like any save: against the hash its writer last read.
    const blind = await as(env.owner, 'POST', historyUrl(env, '/restore'), {
      page: 'guides/install.md',
      commit: shas[0],
    });
    expect(blind.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'lastKnownHash' } });
  });

  it('shows authors by name and handle to readers, and their emails only to admins', async () => {
    const viewer = await registerUser(env.server, { name: 'Vic Viewer' });
    const admin = await registerUser(env.server, { name: 'Ada Admin' });
    await grantRole(env.server, env.ws, viewer, 'viewer');
    await grantRole(env.server, env.ws, admin, 'admin');
    const eddie = { name: 'Eddie Editor', handle: env.editor.handle, user_id: env.editor.id };
    for (const reader of [viewer, env.editor]) {
      const res = await as(reader, 'GET', historyUrl(env, '?page=guides/install.md'));
      expect(res.status).toBe(200);
      expect(res.body.data[0].author).toEqual(eddie);
      expect(res.text).not.toContain(env.editor.email);
      expect(res.text).not.toContain(env.owner.email);
    }
    const seen = await as(admin, 'GET', historyUrl(env, '?page=guides/install.md'));
    expect(seen.body.data[0].author).toEqual({ ...eddie, email: env.editor.email });
    expect(seen.body.data.at(-1).author.email).toBe(env.owner.email);
  });

  it('lets a viewer read history but not restore, and hides it from strangers', async () => {
    const viewer = await registerUser(env.server, { name: 'Vera Viewer' });
    const stranger = await registerUser(env.server, { name: 'Sam Stranger' });
    await grantRole(env.server, env.ws, viewer, 'viewer');
    const body = { page: 'guides/install.md', commit: shas[0] };
    expect((await as(viewer, 'GET', historyUrl(env, '?page=guides/install.md'))).status).toBe(200);
    expect((await as(viewer, 'GET', historyUrl(env, `/${shas[0]}?page=guides/install.md`))).status).toBe(200);
    const refused = await as(viewer, 'POST', historyUrl(env, '/restore'), body);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('FORBIDDEN');
    for (const rest of ['?page=guides/install.md', `/${shas[0]}?page=guides/install.md`, '/deleted']) {
      expect((await as(stranger, 'GET', historyUrl(env, rest))).status).toBe(404);
    }
    expect((await as(stranger, 'POST', historyUrl(env, '/restore'), body)).status).toBe(404);
  });

  it('restores a version as a new commit and leaves the old commits untouched', async () => {
    // A key the old version did not have goes with the restore.
    const tagged = await committed(env, async () => {
      const page = await as(env.owner, 'GET', pageUrl(env, 'guides/install.md'));
      return as(env.owner, 'PUT', pageUrl(env, 'guides/install.md'), {
        frontmatter: { tags: ['ops'] },
        lastKnownHash: page.body.content_hash,
      });
    });
    expect(tagged.res.body.tags).toEqual(['ops']);
    const before = await commitsOf(env.repo);
    const current = await as(env.editor, 'GET', pageUrl(env, 'guides/install.md'));
    const stale = await as(env.editor, 'POST', historyUrl(env, '/restore'), {
      page: 'guides/install.md',
      commit: shas[0],
      lastKnownHash: 'sha256:stale',
    });
    expect(stale.status).toBe(409);
    const { res, sha } = await committed(env, () =>
      as(env.editor, 'POST', historyUrl(env, '/restore'), {
        page: 'guides/install.md',
        commit: shas[0],
        lastKnownHash: current.body.content_hash,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ restored_from: shas[0], created: false });
    expect(res.body.page).toMatchObject({
      page_id: pageId,
      path: 'guides/install.md',
      content: V1,
      tags: [],
    });
    // The file holds the old text again; git gained one commit on top of the old ones.
    expect(rawAt('guides/install.md')).toBe(raws[0]);
    const after = await commitsOf(env.repo);
    expect(after.slice(1)).toEqual(before);
    expect(after[0]).toBe(sha);
    const author = await runGit(env.repo, ['log', '-1', '--format=%an <%ae>']);
    expect(author.stdout.trim()).toBe(`Eddie Editor <${env.editor.email}>`);
    for (const old of shas) expect(after).toContain(old);
    const listed = await as(env.owner, 'GET', historyUrl(env, '?page=guides/install.md&limit=1'));
    expect(listed.body.data[0]).toMatchObject({ commit: sha, change: 'updated' });
    // An ordinary save: the page reads back restored, search and the activity feed follow.
    const read = await as(env.owner, 'GET', pageUrl(env, 'guides/install.md'));
    expect(read.body.content).toBe(V1);
    const search = (q: string) => as(env.owner, 'GET', `/api/v1/workspaces/${env.ws.id}/search?q=${q}`);
    expect((await search('Eddie')).body.total).toBe(0);
    expect((await search('three')).body.results).toEqual([
      expect.objectContaining({ path: 'guides/install.md' }),
    ]);
    const activity = await as(
      env.owner,
      'GET',
      `/api/v1/workspaces/${env.ws.id}/page-activity?page=guides/install.md`,
    );
    expect(activity.body.data[0]).toMatchObject({ action: 'page_updated', actor: env.editor.id });
  });

  it('lists a deleted page and brings it back under its page_id', async () => {
    const before = (await commitsOf(env.repo))[0];
    const { sha: deletion } = await committed(env, () =>
      as(env.owner, 'DELETE', pageUrl(env, 'guides/install.md')),
    );
    const deleted = await as(env.editor, 'GET', historyUrl(env, '/deleted'));
    expect(deleted.status).toBe(200);
    expect(deleted.text).not.toContain(env.owner.email);
    expect(deleted.body.data).toEqual([
      expect.objectContaining({
        path: 'guides/install.md',
        commit: deletion,
        change: 'deleted',
        restore_commit: before,
        author: { name: 'Olive Owner', handle: env.owner.handle, user_id: env.owner.id },
      }),
    ]);
    const history = await as(env.editor, 'GET', historyUrl(env, '?page=guides/install.md&limit=1'));
    expect(history.body.data[0]).toMatchObject({ commit: deletion, change: 'deleted' });
    // Nothing to show at the deletion itself; the version before it is restored.
    expect((await as(env.editor, 'GET', historyUrl(env, `/${deletion}?page=guides/install.md`))).status).toBe(
      404,
    );
    const { res } = await committed(env, () =>
      as(env.editor, 'POST', historyUrl(env, '/restore'), { page: 'guides/install.md', commit: before }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ created: true, page: { page_id: pageId, content: V1 } });
    expect((await as(env.owner, 'GET', pageUrl(env, 'guides/install.md'))).body.page_id).toBe(pageId);
    const after = await as(env.editor, 'GET', historyUrl(env, '/deleted'));
    expect(after.body.data).toEqual([]);
  });
});
