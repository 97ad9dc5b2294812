import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { workspaceMetaFile } from '../../src/content/workspace-meta.js';
import { runCli, runProcess } from '../helpers/cli.js';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import { registerUser } from '../helpers/users.js';
import {
  type ContentServer,
  eventually,
  fileIn,
  pageUrl,
  startOn,
  starterWorkspace,
  wipeDatabase,
} from './content-helpers.js';

type Node = { path: string; page_id: string | null; title: string; sort_order: number; children: Node[] };
const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

describeEachDatabase('files are the truth ($name)', (target: DatabaseTarget) => {
  let ctx: ContentServer;
  afterEach(() => ctx?.cleanup());

  const api = (token: string) => ({
    get: (p: string) => ctx.server.request('GET', p, { token }),
    page: (slug: string, p: string) => ctx.server.request('GET', pageUrl(slug, p), { token }),
    post: (slug: string, p: string, body: unknown) =>
      ctx.server.request('POST', pageUrl(slug, p), { token, body }),
    tree: async (slug: string) =>
      flatten(
        (await ctx.server.request('GET', `/api/v1/content/${slug}/tree`, { token })).body.tree as Node[],
      ),
  });

  it('picks up files edited, added, moved and deleted while Folio was stopped', async () => {
    ctx = await startOn(target);
    const owner = await registerUser(ctx.server);
    const ws = await starterWorkspace(ctx.server, owner);
    const as = api(owner.token);
    const edited = await as.post(ws.slug, 'edited.md', { title: 'Edited', body: 'v1' });
    const movedAway = await as.post(ws.slug, 'move-me.md', { title: 'Move me', body: 'on the move' });
    await as.post(ws.slug, 'deleted.md', { title: 'Deleted', body: 'bye' });
    await ctx.stop();

    const file = (p: string) => fileIn(ctx.server, ws.id, p);
    fs.writeFileSync(
      file('edited.md'),
      fs.readFileSync(file('edited.md'), 'utf8').replace(/v1$/, 'v2 from disk'),
    );
    fs.rmSync(file('deleted.md'));
    fs.mkdirSync(file('later'));
    fs.renameSync(file('move-me.md'), file('later/moved.md'));
    fs.writeFileSync(file('fresh-notes.md'), '# Written by hand\n');

    await ctx.restart();
    const as2 = api(owner.token);
    // A read catches up at once, even before the background pass reaches the workspace.
    const page = await as2.page(ws.slug, 'edited.md');
    expect(page.status).toBe(200);
    expect(page.body.content).toBe('v2 from disk');
    expect(page.body.page_id).toBe(edited.body.page_id);
    expect(page.body.content_hash).not.toBe(edited.body.content_hash);
    expect(page.body.updated_by).toBeNull();

    const tree = await eventually(async () => {
      const nodes = await as2.tree(ws.slug);
      const paths = nodes.map((n) => n.path);
      return paths.includes('fresh-notes.md') && !paths.includes('deleted.md') ? nodes : undefined;
    });
    expect(tree.map((n) => n.path).sort()).toEqual([
      'edited.md',
      'fresh-notes.md',
      'index.md',
      'later',
      'later/moved.md',
    ]);
    // Matched by its frontmatter id: the page moved, it did not die and get reborn.
    expect(tree.find((n) => n.path === 'later/moved.md')!.page_id).toBe(movedAway.body.page_id);
    // A file without an id gets one, written into the file.
    const fresh = await as2.page(ws.slug, 'fresh-notes.md');
    expect(fresh.body).toMatchObject({
      title: 'Fresh notes',
      content: '# Written by hand\n',
      status: 'draft',
    });
    expect(fs.readFileSync(file('fresh-notes.md'), 'utf8')).toContain(`id: ${fresh.body.page_id}`);
    expect((await as2.page(ws.slug, 'deleted.md')).status).toBe(404);

    const feed = await as2.get(`/api/v1/workspaces/${ws.slug}/activity?limit=100`);
    const fromDisk = feed.body.data.filter(
      (a: { details: { source?: string } }) => a.details.source === 'disk',
    );
    expect(fromDisk.map((a: { action: string; path: string }) => `${a.action} ${a.path}`).sort()).toEqual([
      'page_created fresh-notes.md',
      'page_deleted deleted.md',
      'page_moved later/moved.md',
      'page_updated edited.md',
    ]);
    expect(fromDisk.every((a: { actor: unknown }) => a.actor === null)).toBe(true);

    // While running, an edit on disk is seen by the next read too.
    fs.writeFileSync(file('fresh-notes.md'), fs.readFileSync(file('fresh-notes.md'), 'utf8') + 'More.\n');
    expect((await as2.page(ws.slug, 'fresh-notes.md')).body.content).toBe('# Written by hand\nMore.\n');
  });

  it('indexes route names below the top level, and reports on the workspace the files it cannot index', async () => {
    ctx = await startOn(target);
    const owner = await registerUser(ctx.server);
    const ws = await starterWorkspace(ctx.server, owner);
    const as = api(owner.token);
    expect((await as.post(ws.slug, 'guides/move.md', { title: 'Moving house' })).status).toBe(201);
    expect((await as.post(ws.slug, 'data/tree.md', { title: 'Tree data' })).status).toBe(201);
    for (const reserved of ['tree.md', 'uploads/notes.md', 'Move/x.md']) {
      const res = await as.post(ws.slug, reserved, { title: 'Reserved' });
      expect(res.status, reserved).toBe(400);
      expect(res.body.details.field).toBe('path');
    }
    await ctx.stop();

    const file = (p: string) => fileIn(ctx.server, ws.id, p);
    fs.mkdirSync(file('tree'));
    for (const p of ['guides/reorder.md', 'move.md', 'tree/intro.md', 'What?.md'])
      fs.writeFileSync(file(p), `# ${p}\n`);

    await ctx.restart();
    const as2 = api(owner.token);
    const paths = await eventually(async () => {
      const found = (await as2.tree(ws.slug)).map((n) => n.path);
      return found.includes('guides/reorder.md') ? found : undefined;
    });
    expect(paths).toEqual(expect.arrayContaining(['guides/move.md', 'data/tree.md', 'guides/reorder.md']));
    expect(paths).not.toContain('move.md');
    expect((await as2.page(ws.slug, 'guides/reorder.md')).status).toBe(200);

    const record = await as2.get(`/api/v1/workspaces/${ws.id}`);
    expect(record.status).toBe(200);
    expect(record.body.skipped).toEqual([
      { path: 'What?.md', reason: expect.stringContaining('must not contain') },
      { path: 'move.md', reason: '"move" is reserved at the top level of a workspace' },
      { path: 'tree/intro.md', reason: '"tree" is reserved at the top level of a workspace' },
    ]);
  });

  it('removes the temp files a crashed write left at start, keeping those of a live writer', async () => {
    ctx = await startOn(target);
    const owner = await registerUser(ctx.server);
    const ws = await starterWorkspace(ctx.server, owner);
    await api(owner.token).post(ws.slug, 'guides/setup.md', { title: 'Setup', body: 'kept' });
    await ctx.stop();

    const dead = await runProcess(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      env: {},
    });
    const live = spawn('sleep', ['60']);
    try {
      const file = (p: string) => fileIn(ctx.server, ws.id, p);
      const crashed = ['guides/.folio-tmp-' + dead.stdout + '-0a1b2c3d', '.folio-tmp-' + dead.stdout + '-99'];
      const inFlight = `guides/.folio-tmp-${live.pid}-4e5f`;
      fs.mkdirSync(file('uploads'), { recursive: true });
      crashed.push(`uploads/.folio-tmp-${dead.stdout}-77`);
      for (const p of [...crashed, inFlight]) fs.writeFileSync(file(p), 'half a page');

      await ctx.restart();
      for (const p of crashed) expect(fs.existsSync(file(p)), p).toBe(false);
      expect(fs.existsSync(file(inFlight))).toBe(true);
      expect(fs.existsSync(file('guides/setup.md'))).toBe(true);
    } finally {
      live.kill();
    }
  });

  it('leaves the index alone when a workspace directory is missing, and recovers when it returns', async () => {
    ctx = await startOn(target);
    const owner = await registerUser(ctx.server);
    const ws = await starterWorkspace(ctx.server, owner);
    const as = api(owner.token);
    await as.post(ws.slug, 'safe.md', { title: 'Safe', body: 'still here' });
    await ctx.stop();
    const dir = fileIn(ctx.server, ws.id);
    fs.renameSync(dir, `${dir}.away`);
    await ctx.restart();
    const missing = await as.page(ws.slug, 'safe.md');
    expect(missing.status).toBe(500);
    expect(missing.body.error).toBe('INTERNAL_ERROR');
    expect((await as.tree(ws.slug)).map((n) => n.path)).toContain('safe.md');
    // Git sync's start-up may be recreating an empty repository there meanwhile (git runs
    // beside this thread), so the swap is retried until it goes through.
    await eventually(async () => {
      try {
        fs.rmSync(dir, { recursive: true, force: true });
        fs.renameSync(`${dir}.away`, dir);
        return true;
      } catch {
        return false;
      }
    });
    expect((await as.page(ws.slug, 'safe.md')).body.content).toBe('still here');
  });

  it('rebuilds a lost database from the files with the same page_ids, adopted at the first registration', async () => {
    ctx = await startOn(target);
    const owner = await registerUser(ctx.server);
    const docs = await starterWorkspace(ctx.server, owner);
    const as = api(owner.token);
    const created = await ctx.server.request('POST', '/api/v1/workspaces', {
      token: owner.token,
      body: { name: 'Handbook', slug: `handbook-${docs.id.toLowerCase()}`, git_branch: 'trunk' },
    });
    const handbook = created.body as { id: string; slug: string; webhook_secret: string };
    const doomed = await ctx.server.request('POST', '/api/v1/workspaces', {
      token: owner.token,
      body: { name: 'Doomed', slug: `doomed-${docs.id.toLowerCase()}` },
    });
    for (const p of ['a', 'b', 'deep/er/c'])
      await as.post(handbook.slug, p, { title: p.toUpperCase(), body: `body of ${p}` });
    const b = await as.page(handbook.slug, 'b.md');
    await ctx.server.request('POST', `/api/v1/content/${handbook.slug}/reorder`, {
      token: owner.token,
      body: { parent_path: '', order: [{ id: b.body.page_id, sort_order: -5 }] },
    });
    await as.post(docs.slug, 'notes', { title: 'Notes', body: 'kept' });
    expect(
      (await ctx.server.request('DELETE', `/api/v1/workspaces/${doomed.body.id}`, { token: owner.token }))
        .status,
    ).toBe(204);
    const treeBefore = { docs: await as.tree(docs.slug), handbook: await as.tree(handbook.slug) };
    const aBefore = await as.page(handbook.slug, 'a.md');
    await ctx.stop();

    await wipeDatabase(ctx);
    const res = await runCli(['rebuild'], ctx.cliEnv());
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`restored workspace ${handbook.slug}: pending-first-registration`);
    expect(res.stdout).toContain(
      `restored workspace ${doomed.body.slug}: pending-first-registration, soft-deleted`,
    );
    expect(res.stdout).toMatch(/Done: 2 workspaces, 5 pages, 0 ids written, 3 workspaces restored, 0 failed/);

    await ctx.restart();
    const heir = await registerUser(ctx.server);
    const list = await ctx.server.request('GET', '/api/v1/workspaces', { token: heir.token });
    const slugs = list.body.data.map((w: { slug: string }) => w.slug);
    expect(slugs).toEqual(expect.arrayContaining([docs.slug, handbook.slug]));
    expect(slugs).not.toContain(doomed.body.slug);
    expect(list.body.data).toHaveLength(3); // the two restored and the heir's own starter
    const restored = list.body.data.find((w: { id: string }) => w.id === handbook.id);
    expect(restored).toMatchObject({
      git_branch: 'trunk',
      role: 'superadmin',
      webhook_secret: handbook.webhook_secret,
    });

    const as2 = api(heir.token);
    expect(await as2.tree(docs.slug)).toEqual(treeBefore.docs);
    expect(await as2.tree(handbook.slug)).toEqual(treeBefore.handbook);
    const aAfter = await as2.page(handbook.slug, 'a.md');
    expect(aAfter.body).toMatchObject({
      page_id: aBefore.body.page_id,
      content_hash: aBefore.body.content_hash,
      content: 'body of a',
    });
    // A deleted workspace stays deleted and keeps its slug.
    const again = await ctx.server.request('POST', '/api/v1/workspaces', {
      token: heir.token,
      body: { name: 'Again', slug: doomed.body.slug },
    });
    expect(again.status).toBe(409);
    const meta = JSON.parse(fs.readFileSync(workspaceMetaFile(ctx.server.dataDir, handbook.id), 'utf8'));
    expect(meta).toMatchObject({ id: handbook.id, slug: handbook.slug, org_handle: heir.handle });
  });

  it('lets the platform owner adopt at once when the organization is gone but the owner exists', async () => {
    ctx = await startOn(target);
    const first = await registerUser(ctx.server);
    const ws = await starterWorkspace(ctx.server, first);
    const page = await api(first.token).post(ws.slug, 'kept.md', { title: 'Kept' });
    await ctx.stop();
    await wipeDatabase(ctx);
    await ctx.restart();
    const owner = await registerUser(ctx.server); // the new platform owner, before the rebuild
    await ctx.stop();
    const res = await runCli(['rebuild', '--workspace', ws.slug], ctx.cliEnv());
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`restored workspace ${ws.slug}: platform-owner`);
    await ctx.restart();
    expect((await api(owner.token).page(ws.slug, 'kept.md')).body.page_id).toBe(page.body.page_id);
  });
});
