import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { hashOf } from '../../src/domain/frontmatter.js';
import { runGit } from '../../src/git/git.js';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import { bob, cloneRepo, commitFile, createBareRepo, fileUrl, pushClone } from '../helpers/git-fixtures.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import {
  eventually,
  fileAt,
  logLines,
  pageUrl,
  remoteWorkspace,
  type SyncEnv,
  startSync,
  treeOf,
} from './sync-helpers.js';

const STAMP = /^\d{8}T\d{6}Z$/;

describeEachDatabase('sync conflicts ($name)', (target: DatabaseTarget) => {
  let env: SyncEnv;
  afterEach(() => env?.cleanup());

  const call = (user: TestUser, method: string, p: string, body?: unknown) =>
    env.server.request(method, p, { token: user.token, body });

  /**
   * A page both sides edit on the same line: git first (pushed), then the web.
   * Answers the workspace, the page, an editor and a viewer, the bare remote and the clone.
   */
  async function conflicted() {
    env = await startSync(target);
    const owner = env.owner;
    const bare = await createBareRepo(env.tmp, 'docs');
    const ws = await remoteWorkspace(env, fileUrl(bare));
    const editor = await registerUser(env.server, { name: 'Eddie Editor' });
    const viewer = await registerUser(env.server);
    for (const [user, role] of [
      [editor, 'editor'],
      [viewer, 'viewer'],
    ] as const) {
      await env.server.folio.store.db
        .insertInto('workspace_members')
        .values({ workspace_id: ws.id, user_id: user.id, role, created_at: new Date().toISOString() })
        .execute();
    }
    const created = await call(owner, 'POST', pageUrl(ws.slug, 'guide.md'), {
      title: 'Guide',
      body: 'line one\nline two\nline three\n',
    });
    await eventually(async () => fileAt(bare, 'guide.md'));
    const clone = await cloneRepo(fileUrl(bare), path.join(env.tmp, 'clone'));
    const gitText = fs
      .readFileSync(path.join(clone, 'guide.md'), 'utf8')
      .replace('line two', 'line two, from git');
    await commitFile(clone, 'guide.md', gitText, bob);
    await pushClone(clone);

    const web = await call(editor, 'PUT', pageUrl(ws.slug, 'guide.md'), {
      body: 'line one\nline two, from the web\nline three\n',
      lastKnownHash: created.body.content_hash,
    });
    expect(web.status).toBe(200);
    // The web commit's push is refused (the remote moved on), which merges and finds the conflict.
    const sync = await call(owner, 'POST', `/api/v1/workspaces/${ws.id}/sync`);
    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({ status: 'conflict', changes: { added: 0, updated: 0, deleted: 0 } });
    return { ws, page: created.body, editor, viewer, bare, clone, gitText };
  }

  it('records a conflict, keeps both versions, and keeps serving the web version', async () => {
    const { ws, page, editor, viewer, gitText } = await conflicted();
    const list = await call(viewer, 'GET', `/api/v1/workspaces/${ws.id}/conflicts`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      workspace_id: ws.id,
      sync_status: 'conflict',
      conflicts: [
        {
          id: expect.any(String),
          path: 'guide.md',
          page_id: page.page_id,
          ours_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
          theirs_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
          timestamp: expect.stringMatching(STAMP),
        },
      ],
    });
    const c = list.body.conflicts[0];

    const ours = await call(viewer, 'GET', `/api/v1/conflicts/${page.page_id}/${c.timestamp}/ours`);
    expect(ours.status).toBe(200);
    expect(ours.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(ours.text).toContain('line two, from the web');
    expect(ours.text).toMatch(new RegExp(`^---\\nid: ${page.page_id}\\n`));
    expect(hashOf(ours.text)).toBe(c.ours_hash);
    const theirs = await call(viewer, 'GET', `/api/v1/conflicts/${page.page_id}/${c.timestamp}/theirs`);
    expect(theirs.text).toBe(gitText);
    expect(hashOf(theirs.text)).toBe(c.theirs_hash);

    const one = await call(viewer, 'GET', `/api/v1/workspaces/${ws.id}/sync/conflicts/${c.id}`);
    expect(one.body).toMatchObject({ ...c, ours: ours.text, theirs: gitText, resolved_at: null });

    // Nothing was overwritten: the page serves the web text and the tree has no conflict markers.
    const served = await call(viewer, 'GET', pageUrl(ws.slug, 'guide.md'));
    expect(served.body.content).toBe('line one\nline two, from the web\nline three\n');
    const tree = treeOf(env, ws.id);
    expect(fs.readFileSync(path.join(tree, 'guide.md'), 'utf8')).not.toContain('<<<<<<<');
    expect((await runGit(tree, ['status', '--porcelain'])).stdout).toBe('');
    expect(fs.existsSync(path.join(tree, '.folio/conflicts', page.page_id, c.timestamp, 'theirs.md'))).toBe(
      true,
    );

    expect(env.events.filter((e) => e.type === 'conflict-detected').map((e) => e.payload)).toEqual([
      { workspace_id: ws.id, path: 'guide.md' },
    ]);
    expect(env.events.some((e) => e.type === 'sync-status' && e.payload.status === 'conflict')).toBe(true);
    const feed = await call(viewer, 'GET', `/api/v1/workspaces/${ws.id}/activity?action=conflict_detected`);
    expect(feed.body.data).toHaveLength(1);
    expect((await call(viewer, 'GET', `/api/v1/workspaces/${ws.id}`)).body.sync_status).toBe('conflict');

    // Syncing again finds the same conflict: it is not recorded twice.
    await call(env.owner, 'POST', `/api/v1/workspaces/${ws.id}/sync`);
    expect((await call(viewer, 'GET', `/api/v1/workspaces/${ws.id}/conflicts`)).body.conflicts).toHaveLength(
      1,
    );

    // Viewers read; resolving needs edit rights; strangers see nothing.
    const byViewer = await call(
      viewer,
      'POST',
      `/api/v1/workspaces/${ws.id}/sync/conflicts/${c.id}/resolve`,
      {
        resolution: 'ours',
      },
    );
    expect(byViewer.status).toBe(403);
    const stranger = await registerUser(env.server);
    expect((await call(stranger, 'GET', `/api/v1/workspaces/${ws.id}/conflicts`)).status).toBe(404);
    expect(
      (await call(stranger, 'GET', `/api/v1/conflicts/${page.page_id}/${c.timestamp}/ours`)).status,
    ).toBe(404);
    expect((await call(editor, 'GET', `/api/v1/conflicts/${page.page_id}/${c.timestamp}/mine`)).status).toBe(
      400,
    );
    expect((await call(editor, 'GET', `/api/v1/conflicts/${page.page_id}/2020/ours`)).status).toBe(404);
  });

  it('resolves with merged content: merges, pushes as the caller, clears the list', async () => {
    const { ws, page, editor, bare } = await conflicted();
    const c = (await call(editor, 'GET', `/api/v1/workspaces/${ws.id}/conflicts`)).body.conflicts[0];
    env.events.length = 0;
    const bad = [{}, { resolution: 'ours', content: 'x' }, { resolution: 'mine' }];
    for (const body of bad) {
      const res = await call(
        editor,
        'POST',
        `/api/v1/workspaces/${ws.id}/sync/conflicts/${c.id}/resolve`,
        body,
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('VALIDATION_ERROR');
    }
    const merged = `---\nid: ${page.page_id}\ntitle: Guide\nstatus: draft\n---\n\nline one\nline two, from git and the web\nline three\n`;
    const res = await call(editor, 'POST', `/api/v1/workspaces/${ws.id}/sync/conflicts/${c.id}/resolve`, {
      content: merged,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: expect.any(String),
      page_id: page.page_id,
      sync_status: 'idle',
    });

    const list = await call(editor, 'GET', `/api/v1/workspaces/${ws.id}/conflicts`);
    expect(list.body).toEqual({ workspace_id: ws.id, sync_status: 'idle', conflicts: [] });
    expect((await call(editor, 'GET', pageUrl(ws.slug, 'guide.md'))).body.content).toBe(
      'line one\nline two, from git and the web\nline three\n',
    );
    // The remote has the merged text in a merge commit joining both histories, by the editor.
    expect(await fileAt(bare, 'guide.md')).toContain('line two, from git and the web');
    const [parents] = await logLines(bare, '%P');
    expect(parents!.split(' ')).toHaveLength(2);
    expect((await logLines(bare, '%an %s'))[0]).toBe('Eddie Editor Merge origin/main');
    expect(await logLines(bare, '%s')).toContain('Update guide.md');
    // The artefacts are gone; a download says so.
    expect(fs.existsSync(path.join(treeOf(env, ws.id), '.folio/conflicts', page.page_id, c.timestamp))).toBe(
      false,
    );
    expect((await call(editor, 'GET', `/api/v1/conflicts/${page.page_id}/${c.timestamp}/ours`)).status).toBe(
      404,
    );
    expect(env.events.some((e) => e.type === 'sync-status' && e.payload.status === 'idle')).toBe(true);
    const feed = await call(editor, 'GET', `/api/v1/workspaces/${ws.id}/activity?action=conflict_resolved`);
    expect(feed.body.data[0]).toMatchObject({ actor: editor.id, details: { resolution: 'content' } });

    const again = await call(editor, 'POST', `/api/v1/workspaces/${ws.id}/sync/conflicts/${c.id}/resolve`, {
      resolution: 'ours',
    });
    expect(again.status).toBe(409);
    const missing = await call(
      editor,
      'POST',
      `/api/v1/workspaces/${ws.id}/sync/conflicts/01JNOSUCHCONFLICT000000000/resolve`,
      {
        resolution: 'ours',
      },
    );
    expect(missing.status).toBe(404);
  });

  it('resolves by keeping one side', async () => {
    const { ws, editor, bare } = await conflicted();
    const c = (await call(editor, 'GET', `/api/v1/workspaces/${ws.id}/conflicts`)).body.conflicts[0];
    const res = await call(editor, 'POST', `/api/v1/workspaces/${ws.id}/sync/conflicts/${c.id}/resolve`, {
      resolution: 'theirs',
    });
    expect(res.status).toBe(200);
    expect((await call(editor, 'GET', pageUrl(ws.slug, 'guide.md'))).body.content).toBe(
      'line one\nline two, from git\nline three\n',
    );
    expect(await fileAt(bare, 'guide.md')).toContain('line two, from git\n');
    expect(await fileAt(bare, 'guide.md')).not.toContain('from the web');
    expect((await call(editor, 'GET', `/api/v1/workspaces/${ws.id}`)).body.sync_status).toBe('idle');
  });

  it('resolves by keeping the web version, which then reaches the remote', async () => {
    const { ws, editor, bare } = await conflicted();
    const c = (await call(editor, 'GET', `/api/v1/workspaces/${ws.id}/conflicts`)).body.conflicts[0];
    const res = await call(editor, 'POST', `/api/v1/workspaces/${ws.id}/sync/conflicts/${c.id}/resolve`, {
      resolution: 'ours',
    });
    expect(res.status).toBe(200);
    expect(res.body.sync_status).toBe('idle');
    expect(await fileAt(bare, 'guide.md')).toContain('line two, from the web\n');
    // History joined: the git-side commit is an ancestor of what the remote has now.
    expect(await logLines(bare, '%s')).toEqual(
      expect.arrayContaining(['Merge origin/main', 'Update guide.md']),
    );
  });

  it('clears a conflict resolved by hand in git', async () => {
    const { ws, page, editor, viewer, clone } = await conflicted();
    const c = (await call(editor, 'GET', `/api/v1/workspaces/${ws.id}/conflicts`)).body.conflicts[0];
    // Someone makes the remote agree with the web: the next merge is clean.
    const ours = (await call(editor, 'GET', `/api/v1/conflicts/${page.page_id}/${c.timestamp}/ours`)).text;
    await commitFile(clone, 'guide.md', ours, bob, 'Take the web version');
    await pushClone(clone);
    const sync = await call(env.owner, 'POST', `/api/v1/workspaces/${ws.id}/sync`);
    expect(sync.body.status).toBe('completed');
    // The record stays until someone says it is done.
    expect((await call(editor, 'GET', `/api/v1/workspaces/${ws.id}/conflicts`)).body.sync_status).toBe(
      'conflict',
    );

    const done = await call(editor, 'POST', `/api/v1/conflicts/${page.page_id}/${c.timestamp}/resolve`);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: expect.any(String), page_id: page.page_id });
    const list = await call(editor, 'GET', `/api/v1/workspaces/${ws.id}/conflicts`);
    expect(list.body).toEqual({ workspace_id: ws.id, sync_status: 'idle', conflicts: [] });
    expect(
      (await call(editor, 'GET', `/api/v1/conflicts/${page.page_id}/${c.timestamp}/theirs`)).status,
    ).toBe(404);
    expect(fs.existsSync(path.join(treeOf(env, ws.id), '.folio/conflicts', page.page_id, c.timestamp))).toBe(
      false,
    );
    // Idempotent; a viewer may not do it.
    expect(
      (await call(editor, 'POST', `/api/v1/conflicts/${page.page_id}/${c.timestamp}/resolve`)).status,
    ).toBe(200);
    expect(
      (await call(viewer, 'POST', `/api/v1/conflicts/${page.page_id}/${c.timestamp}/resolve`)).status,
    ).toBe(403);
  });
});
