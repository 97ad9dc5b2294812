import path from 'node:path';
import { expect, it } from 'vitest';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import { cloneRepo, commitRename, fileUrl, pushClone } from '../helpers/git-fixtures.js';
import { useFileRemotes } from './content-helpers.js';

describeEachDatabase('pages renamed in git ($name)', (target: DatabaseTarget) => {
  const remotes = useFileRemotes(target, 'renamed');

  it('redirects the old published URL of a file renamed in git, as a move through Folio does', async () => {
    const { ctx, owner, tmp } = await remotes.start();
    const { ws, bare, page } = await remotes.remoteWorkspace(owner, {
      name: 'Renamed',
      page: { path: 'guides/intro.md', title: 'Intro', body: 'Hello' },
    });
    const slug = ws.slug;
    const settings = await ctx.server.request('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, {
      token: owner.token,
      body: { public_site: true },
    });
    expect(settings.status).toBe(200);

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
