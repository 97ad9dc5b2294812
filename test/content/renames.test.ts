import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import {
  cloneRepo,
  commitRename,
  createBareRepo,
  fileUrl,
  makeTempDir,
  pushClone,
  removeTempDir,
} from '../helpers/git-fixtures.js';
import { registerUser } from '../helpers/users.js';
import { createPage } from '../helpers/workspace-access.js';
import { fileAt } from '../sync/sync-helpers.js';
import { type ContentServer, eventually, startOn } from './content-helpers.js';

describeEachDatabase('pages renamed in git ($name)', (target: DatabaseTarget) => {
  let ctx: ContentServer;
  let tmp: string | undefined;
  afterEach(async () => {
    await ctx?.cleanup();
    if (tmp) await removeTempDir(tmp);
    tmp = undefined;
  });

  it('redirects the old published URL of a file renamed in git, as a move through Folio does', async () => {
    tmp = await makeTempDir('folio-rename-');
    ctx = await startOn(target, {
      env: { GIT_SYNC_INTERVAL: '0', GIT_ALLOW_FILE_REMOTES: 'true', GIT_FILE_REMOTE_ROOT: tmp },
    });
    const owner = await registerUser(ctx.server);
    const bare = await createBareRepo(tmp, 'docs');
    const slug = `renamed-${Date.now() % 1e8}`;
    const created = await ctx.server.request('POST', '/api/v1/workspaces', {
      token: owner.token,
      body: { name: 'Renamed', slug, git_remote: fileUrl(bare), git_branch: 'main' },
    });
    expect(created.status).toBe(201);
    const ws = created.body as { id: string; slug: string };
    const settings = await ctx.server.request('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, {
      token: owner.token,
      body: { public_site: true },
    });
    expect(settings.status).toBe(200);
    const page = await createPage(ctx.server, owner, ws, 'guides/intro.md', {
      title: 'Intro',
      body: 'Hello',
      publish: true,
    });
    await eventually(async () => fileAt(bare, 'guides/intro.md'));

    const clone = await cloneRepo(fileUrl(bare), path.join(tmp, 'clone'));
    await commitRename(clone, 'guides/intro.md', 'guides/introduction.md');
    await pushClone(clone);
    const synced = await ctx.server.request('POST', `/api/v1/workspaces/${ws.id}/sync`, {
      token: owner.token,
    });
    expect(synced.status).toBe(200);

    const moved = await ctx.server.request('GET', `/api/v1/content/${slug}/guides/introduction.md`, {
      token: owner.token,
    });
    expect(moved.body.page_id).toBe(page.page_id);
    const old = await ctx.server.request('GET', `/p/${slug}/guides/intro`);
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe(`/p/${slug}/guides/introduction`);
    expect((await ctx.server.request('GET', `/p/${slug}/guides/introduction`)).status).toBe(200);
  }, 90_000);
});
