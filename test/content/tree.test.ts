import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import {
  type ContentServer,
  eventually,
  fileIn,
  pageUrl,
  startOn,
  starterWorkspace,
} from './content-helpers.js';

interface Node {
  type: string;
  name: string;
  path: string;
  title: string;
  page_id: string | null;
  sort_order: number;
  children: Node[];
}

/** The tree as `name` lists per level, for compact assertions. */
const shape = (nodes: Node[]): unknown[] =>
  nodes.map((n) => (n.type === 'folder' ? { [n.name]: shape(n.children) } : n.name));

describeEachDatabase('tree and reorder ($name)', (target) => {
  let ctx: ContentServer;
  let owner: TestUser;
  let ws: { id: string; slug: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await startOn(target);
    owner = await registerUser(ctx.server);
    ws = await starterWorkspace(ctx.server, owner);
    for (const [p, title] of [
      ['guide/b', 'B'],
      ['guide/page10', 'Ten'],
      ['guide/a', 'A'],
      ['guide/page2', 'Two'],
      ['guide/index', 'The Guide'],
      ['zeta', 'Zeta'],
      ['alpha', 'Alpha'],
      ['api/v1/ref', 'Reference'],
    ]) {
      const res = await ctx.server.request('POST', pageUrl(ws.slug, p!), {
        token: owner.token,
        body: { title },
      });
      ids[p!] = res.body.page_id;
    }
  });
  afterAll(() => ctx.cleanup());

  const tree = async () => {
    const res = await ctx.server.request('GET', `/api/v1/content/${ws.slug}/tree`, { token: owner.token });
    expect(res.status).toBe(200);
    return res.body.tree as Node[];
  };
  const reorder = (body: unknown) =>
    ctx.server.request('POST', `/api/v1/content/${ws.slug}/reorder`, { token: owner.token, body });

  it('nests folders and orders siblings by sort_order, then name (naturally)', async () => {
    const t = await tree();
    expect(shape(t)).toEqual([
      'alpha.md',
      { api: [{ v1: ['ref.md'] }] },
      { guide: ['a.md', 'b.md', 'index.md', 'page2.md', 'page10.md'] },
      'index.md',
      'zeta.md',
    ]);
    const guide = t.find((n) => n.name === 'guide')!;
    // A folder has no page_id and takes its title from its index.md.
    expect(guide).toMatchObject({
      type: 'folder',
      path: 'guide',
      title: 'The Guide',
      page_id: null,
      sort_order: 0,
    });
    expect(guide.children[0]).toEqual({
      type: 'page',
      name: 'a.md',
      path: 'guide/a.md',
      title: 'A',
      page_id: ids['guide/a'],
      sort_order: 0,
      children: [],
    });
  });

  it('reorders pages of a folder, writing the order into their frontmatter', async () => {
    const res = await reorder({
      parent_path: 'guide',
      order: [
        { id: ids['guide/page10'], sort_order: 1 },
        { id: ids['guide/b'], sort_order: 2 },
        { id: ids['guide/a'], sort_order: 3 },
      ],
    });
    expect(res.status).toBe(204);
    const guide = (await tree()).find((n) => n.name === 'guide')!;
    expect(guide.children.map((c) => [c.name, c.sort_order])).toEqual([
      ['index.md', 0],
      ['page2.md', 0],
      ['page10.md', 1],
      ['b.md', 2],
      ['a.md', 3],
    ]);
    expect(fs.readFileSync(fileIn(ctx.server, ws.id, 'guide/b.md'), 'utf8')).toMatch(/^order: 2$/m);
    // The page's own view agrees, and the body (and so content_hash) is untouched.
    const b = await ctx.server.request('GET', pageUrl(ws.slug, 'guide/b.md'), { token: owner.token });
    expect(b.body.sort_order).toBe(2);
    const root = await reorder({ parent_path: '/', order: [{ id: ids.zeta, sort_order: -1 }] });
    expect(root.status).toBe(204);
    expect(shape(await tree())[0]).toBe('zeta.md');
  });

  it('refuses orders that do not describe pages of that folder', async () => {
    const cases: Array<[unknown, string]> = [
      [{ parent_path: 'guide', order: [{ id: ids.alpha, sort_order: 1 }] }, 'order.0.id'],
      [{ parent_path: 'guide', order: [{ id: 'NOPE', sort_order: 1 }] }, 'order.0.id'],
      [{ parent_path: '../guide', order: [{ id: ids['guide/a'], sort_order: 1 }] }, 'parent_path'],
      [{ parent_path: 'guide', order: [] }, 'order'],
      [{ parent_path: 'guide', order: [{ id: ids['guide/a'], sort_order: 1.5 }] }, 'order.0.sort_order'],
      [
        {
          parent_path: 'guide',
          order: [
            { id: ids['guide/a'], sort_order: 1 },
            { id: ids['guide/a'], sort_order: 2 },
          ],
        },
        'order',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await reorder(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field } });
    }
  });

  it('keeps the order through `folio rebuild`, which reads it back from the files', async () => {
    const before = await tree();
    // Wipe the order from the index only: the rebuild must find it in the files.
    await ctx.server.folio.store.db
      .updateTable('pages')
      .set({ sort_order: 0 })
      .where('workspace_id', '=', ws.id)
      .execute();
    // Behind the repository's back, so its revision is raised by hand for the cached tree.
    await ctx.server.folio.store.db
      .updateTable('page_revisions')
      .set((eb) => ({ revision: eb('revision', '+', 1) }))
      .where('workspace_id', '=', ws.id)
      .execute();
    expect(shape(await tree())).not.toEqual(shape(before));
    await ctx.stop();

    const res = await runCli(['rebuild', '--workspace', ws.slug], ctx.cliEnv());
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`rebuilt ${ws.slug}: 9 pages`);
    expect(res.stdout).toMatch(/Done: 1 workspaces, 9 pages/);

    await ctx.restart();
    expect(await tree()).toEqual(before);
  });

  it('answers 304 while the tree is unchanged, sends it gzipped, and shows any change at once', async () => {
    const url = `/api/v1/content/${ws.slug}/tree`;
    const first = await ctx.server.request('GET', url, { token: owner.token });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const again = await ctx.server.request('GET', url, {
      token: owner.token,
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);

    const raw = (encoding: string | null) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const headers: Record<string, string> = { Authorization: `Bearer ${owner.token}` };
        if (encoding) headers['Accept-Encoding'] = encoding;
        http
          .get(ctx.server.url + url, { headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
    const zipped = await raw('br, gzip');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(zipped.body).toString('utf8'))).toEqual(first.body);
    const plain = await raw(null);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString('utf8'))).toEqual(first.body);
    expect((await raw('gzip;q=0')).headers['content-encoding']).toBeUndefined();

    // A page written through the API is in the next answer.
    await ctx.server.request('POST', pageUrl(ws.slug, 'fresh'), {
      token: owner.token,
      body: { title: 'Fresh' },
    });
    const changed = await ctx.server.request('GET', url, {
      token: owner.token,
      headers: { 'If-None-Match': etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(shape(changed.body.tree)).toContain('fresh.md');

    // So is a title changed on disk, once the index has caught up with the file.
    const file = fileIn(ctx.server, ws.id, 'fresh.md');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('title: Fresh', 'title: Renamed on disk'));
    await ctx.server.request('GET', pageUrl(ws.slug, 'fresh.md'), { token: owner.token });
    await eventually(async () => (await tree()).some((n) => n.title === 'Renamed on disk'));
  });

  it('reports a usage error and an unknown workspace', async () => {
    const usage = await runCli(['rebuild', '--frobnicate'], ctx.cliEnv());
    expect(usage.code).toBe(2);
    // rebuild refuses to run beside a live server, so this one stops first.
    await ctx.stop();
    const unknown = await runCli(['rebuild', '--workspace', 'no-such-workspace'], ctx.cliEnv());
    await ctx.restart();
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no-such-workspace');
  });
});
