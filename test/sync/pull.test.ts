import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import {
  bob,
  cloneRepo,
  commitFile,
  commitRename,
  createBareRepo,
  fileUrl,
  pushClone,
} from '../helpers/git-fixtures.js';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.js';
import { registerUser } from '../helpers/users.js';
import {
  eventually,
  fileAt,
  hubSignature,
  logLines,
  pageUrl,
  postWebhook,
  pushPayload,
  remoteWorkspace,
  type SyncEnv,
  startSync,
  treeOf,
} from './sync-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

describeEachDatabase('pulling from the remote ($name)', (target: DatabaseTarget) => {
  let env: SyncEnv;
  let http: GitHttpServer | undefined;
  afterEach(async () => {
    await http?.close();
    http = undefined;
    await env?.cleanup();
  });

  const as = (method: string, p: string, body?: unknown) =>
    env.server.request(method, p, { token: env.owner.token, body });

  /** A workspace on `remote` with one page Folio has pushed, and a clone of the remote. */
  async function seeded(remote: string, bare: string) {
    const ws = await remoteWorkspace(env, remote);
    const page = await as('POST', pageUrl(ws.slug, 'guide.md'), {
      title: 'Guide',
      body: 'line one\nline two\n',
    });
    expect(page.status).toBe(201);
    await eventually(async () => fileAt(bare, 'guide.md'));
    const clone = await cloneRepo(remote, path.join(env.tmp, `clone-${Date.now()}`));
    return { ws, page: page.body, clone };
  }

  it('merges commits pushed elsewhere on sync, with counts and one bulk-sync event', async () => {
    env = await startSync(target);
    const bare = await createBareRepo(env.tmp, 'docs');
    const { ws, page, clone } = await seeded(fileUrl(bare), bare);
    const original = fs.readFileSync(path.join(clone, 'guide.md'), 'utf8');
    await commitFile(clone, 'guide.md', original.replace('line two', 'line two, edited in git'), bob);
    await commitFile(clone, 'new/from-git.md', '---\ntitle: From git\n---\n\nWritten on a laptop.\n', bob);
    await commitFile(clone, 'plain.md', '# Plain file\n\nNo frontmatter at all.\n', bob);
    await pushClone(clone);
    env.events.length = 0;

    const sync = await as('POST', `/api/v1/workspaces/${ws.id}/sync`);
    expect(sync.status).toBe(200);
    expect(sync.body).toEqual({ status: 'completed', changes: { added: 2, updated: 1, deleted: 0 } });

    const guide = await as('GET', pageUrl(ws.slug, 'guide.md'));
    expect(guide.body.content).toContain('edited in git');
    expect(guide.body.page_id).toBe(page.page_id);
    expect((await as('GET', pageUrl(ws.slug, 'new/from-git.md'))).body.title).toBe('From git');
    expect((await as('GET', pageUrl(ws.slug, 'plain.md'))).body.content).toContain('No frontmatter');

    const bulk = env.events.filter((e) => e.type === 'bulk-sync');
    expect(bulk).toHaveLength(1);
    expect(bulk[0]!.payload).toEqual({
      workspace_id: ws.id,
      changed_count: 3,
      paths: expect.arrayContaining(['guide.md', 'new/from-git.md', 'plain.md']),
    });
    expect(env.events.filter((e) => e.type.startsWith('page-'))).toEqual([]);
    const statuses = env.events.filter((e) => e.type === 'sync-status').map((e) => (e.payload as any).status);
    expect(statuses).toEqual(['syncing', 'idle']);

    // The ids Folio gave the new files went back to the remote, so every clone agrees on them.
    const fromGit = await fileAt(bare, 'new/from-git.md');
    expect(fromGit).toMatch(/^id: [0-9A-Z]{26}$/m);
    expect(await logLines(bare, '%s')).toContain('docs: assign page ids');
    const activity = await as('GET', `/api/v1/workspaces/${ws.id}/activity?action=sync_completed`);
    expect(activity.body.data[0]).toMatchObject({
      action: 'sync_completed',
      actor: env.owner.id,
      details: { added: 2, updated: 1, deleted: 0, trigger: 'manual' },
    });
  });

  it('leaves a pulled page above GIT_MAX_PAGE_BYTES out of the index and indexes the rest', async () => {
    env = await startSync(target, { env: { GIT_MAX_PAGE_BYTES: '4096' } });
    const bare = await createBareRepo(env.tmp, 'docs');
    const { ws, clone } = await seeded(fileUrl(bare), bare);
    await commitFile(clone, 'huge.md', `# Huge\n\n${'# h\n'.repeat(2_000)}`, bob);
    await commitFile(clone, 'small.md', '# Small\n\nFits.\n', bob);
    await pushClone(clone);

    const sync = await as('POST', `/api/v1/workspaces/${ws.id}/sync`);
    expect(sync.status).toBe(200);
    expect(sync.body).toEqual({ status: 'completed', changes: { added: 1, updated: 0, deleted: 0 } });
    expect((await as('GET', pageUrl(ws.slug, 'small.md'))).status).toBe(200);
    expect((await as('GET', pageUrl(ws.slug, 'huge.md'))).status).toBe(404);
    // The file itself stays in the workspace, as git has it.
    expect(fs.existsSync(path.join(treeOf(env, ws.id), 'huge.md'))).toBe(true);
  });

  it('keeps page_id and comments when a file is renamed in git, and deletes what git deleted', async () => {
    env = await startSync(target);
    const bare = await createBareRepo(env.tmp, 'docs');
    const { ws, page, clone } = await seeded(fileUrl(bare), bare);
    const comment = await as('POST', `/api/v1/workspaces/${ws.id}/comments`, {
      page: 'guide.md',
      body: 'Nice',
    });
    expect(comment.status).toBe(201);

    await commitRename(clone, 'guide.md', 'handbook/guide.md', bob);
    await pushClone(clone);
    env.events.length = 0;
    const sync = await as('POST', `/api/v1/workspaces/${ws.id}/sync`);
    expect(sync.body).toEqual({ status: 'completed', changes: { added: 0, updated: 1, deleted: 0 } });
    const moved = await as('GET', pageUrl(ws.slug, 'handbook/guide.md'));
    expect(moved.status).toBe(200);
    expect(moved.body.page_id).toBe(page.page_id);
    expect((await as('GET', pageUrl(ws.slug, 'guide.md'))).status).toBe(404);
    const comments = await as('GET', `/api/v1/workspaces/${ws.id}/comments?page=handbook/guide.md`);
    expect(comments.body.data.map((c: any) => c.id)).toEqual([comment.body.id]);
    // One file changed: a page event, not bulk-sync.
    expect(env.events.filter((e) => e.type === 'bulk-sync')).toEqual([]);
    expect(env.events.find((e) => e.type === 'page-moved')?.payload).toEqual({
      workspace_id: ws.id,
      old_path: 'guide.md',
      new_path: 'handbook/guide.md',
      actor: null,
    });

    await commitFile(clone, 'handbook/guide.md', null, bob);
    await pushClone(clone);
    const again = await as('POST', `/api/v1/workspaces/${ws.id}/sync`);
    expect(again.body).toEqual({ status: 'completed', changes: { added: 0, updated: 0, deleted: 1 } });
    expect((await as('GET', pageUrl(ws.slug, 'handbook/guide.md'))).status).toBe(404);
  });

  it('pulls after a signed webhook over HTTP, in the background', async () => {
    env = await startSync(target);
    await createBareRepo(env.tmp, 'docs');
    http = await startGitHttpServer(env.tmp);
    const remote = `${http.url}/docs.git`;
    const bare = path.join(env.tmp, 'docs.git');
    const { ws, clone } = await seeded(remote, bare);
    for (let i = 0; i < 3; i++) await commitFile(clone, `hooked/p${i}.md`, `# Hooked ${i}\n`, bob);
    await pushClone(clone);
    env.events.length = 0;

    const body = pushPayload('main');
    const res = await postWebhook(env, ws.id, body, {
      'x-github-event': 'push',
      'x-hub-signature-256': hubSignature(ws.webhook_secret, body),
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'accepted' });
    const bulk = await eventually(async () => env.events.find((e) => e.type === 'bulk-sync'));
    expect(bulk.payload).toMatchObject({ workspace_id: ws.id, changed_count: 3 });
    expect((await as('GET', pageUrl(ws.slug, 'hooked/p2.md'))).body.content).toContain('Hooked 2');
    const activity = await as('GET', `/api/v1/workspaces/${ws.id}/activity?action=sync_completed`);
    expect(activity.body.data[0].details).toMatchObject({
      added: 3,
      updated: 0,
      deleted: 0,
      trigger: 'webhook',
    });
  });

  it('polls the remote every GIT_SYNC_INTERVAL seconds', async () => {
    env = await startSync(target, { env: { GIT_SYNC_INTERVAL: '1' } });
    const bare = await createBareRepo(env.tmp, 'docs');
    const { ws, clone } = await seeded(fileUrl(bare), bare);
    await commitFile(clone, 'polled.md', '# Found by polling\n', bob);
    await pushClone(clone);
    const page = await eventually(async () => {
      const r = await as('GET', pageUrl(ws.slug, 'polled.md'));
      return r.status === 200 ? r.body : null;
    });
    expect(page.content).toContain('Found by polling');
  });

  it('lets only admins sync, and syncs a workspace without a remote with its files', async () => {
    env = await startSync(target);
    const ws = (await as('GET', '/api/v1/workspaces')).body.data[0];
    const editor = await registerUser(env.server);
    await env.server.folio.store.db
      .insertInto('workspace_members')
      .values({
        workspace_id: ws.id,
        user_id: editor.id,
        role: 'editor',
        created_at: new Date().toISOString(),
      })
      .execute();
    const stranger = await registerUser(env.server);
    const byEditor = await env.server.request('POST', `/api/v1/workspaces/${ws.id}/sync`, {
      token: editor.token,
    });
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error).toBe('FORBIDDEN');
    const byStranger = await env.server.request('POST', `/api/v1/workspaces/${ws.id}/sync`, {
      token: stranger.token,
    });
    expect(byStranger.status).toBe(404);
    expect((await env.server.request('POST', `/api/v1/workspaces/${ws.id}/sync`)).status).toBe(401);

    fs.writeFileSync(path.join(treeOf(env, ws.id), 'by-hand.md'), '# Edited on the server\n');
    const sync = await as('POST', `/api/v1/workspaces/${ws.id}/sync`);
    expect(sync.body).toEqual({ status: 'completed', changes: { added: 1, updated: 0, deleted: 0 } });
    expect(await logLines(treeOf(env, ws.id), '%s')).toContain('docs: commit changes made outside Folio');
  });
});
