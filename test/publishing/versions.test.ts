/**
 * Documentation versions over HTTP: a version freezes the published pages under a git
 * tag, keeps serving them unchanged after the live pages change, and is served at the
 * site root once it is the default. Repository files the frozen pages reference (images
 * beside a page, Obsidian attachments) are read from the tag too.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, grantRole, type TestWorkspace } from '../helpers/workspace-access.js';
import { editPage, get, PNG, setSettings, startPublishing, upload } from './publishing-helpers.js';

describeEachDatabase('versions ($name)', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let viewer: TestUser;
  let ws: TestWorkspace;
  let logo: string;

  beforeAll(async () => {
    server = await startPublishing({}, target);
    owner = await registerUser(server);
    viewer = await registerUser(server);
    ws = await createWorkspace(server, owner, 'product-docs');
    await grantRole(server, ws, viewer, 'viewer');
    logo = await upload(server, owner, ws, 'logo.png', PNG);
    await createPage(server, owner, ws, 'index.md', {
      title: 'Product',
      body: 'Version one home.',
      publish: true,
    });
    await createPage(server, owner, ws, 'api/auth.md', {
      title: 'Auth',
      body: `Tokens last one hour.\n\n![Logo](../uploads/${logo})\n`,
      publish: true,
    });
    await createPage(server, owner, ws, 'draft.md', { title: 'Draft', body: 'Not frozen.' });
    await setSettings(server, owner, ws, { public_site: true });
  });

  afterAll(() => server.close());

  const versions = (rest = '') => `/api/v1/workspaces/${ws.id}/versions${rest}`;

  describe('versions', () => {
    it('freezes the published pages under a git tag (admins only)', async () => {
      const refused = await server.request('POST', versions(), {
        token: viewer.token,
        body: { slug: 'v1', name: 'v1.0' },
      });
      expect(refused.status).toBe(403);
      const bad = await server.request('POST', versions(), {
        token: owner.token,
        body: { slug: 'V 1!', name: 'x' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.details.field).toBe('slug');
      const reserved = await server.request('POST', versions(), {
        token: owner.token,
        body: { slug: 'latest', name: 'x' },
      });
      expect(reserved.status).toBe(400);

      const created = await server.request('POST', versions(), {
        token: owner.token,
        body: { slug: 'v1', name: 'v1.0' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        slug: 'v1',
        name: 'v1.0',
        is_default: false,
        page_count: 2,
        created_at: expect.any(String),
      });
      const again = await server.request('POST', versions(), {
        token: owner.token,
        body: { slug: 'v1', name: 'again' },
      });
      expect(again.status).toBe(409);

      const detail = await server.request('GET', versions('/v1'), { token: viewer.token });
      expect(detail.status).toBe(200);
      expect(detail.body.pages.map((p: { path: string }) => p.path)).toEqual(['api/auth.md', 'index.md']);
      expect(detail.body.pages[0]).toEqual({
        path: 'api/auth.md',
        page_id: expect.any(String),
        content_hash: expect.stringMatching(/^sha256:/),
        title: 'Auth',
      });
      const tags = execFileSync('git', ['tag', '--list'], {
        cwd: path.join(server.dataDir, 'workspaces', ws.id),
        encoding: 'utf8',
      });
      expect(tags).toContain('folio-version/v1');
      expect((await server.request('GET', versions('/nope'), { token: viewer.token })).status).toBe(404);

      const activity = await server.request(
        'GET',
        `/api/v1/workspaces/${ws.id}/activity?action=version_created`,
        {
          token: owner.token,
        },
      );
      expect(activity.body.data[0].details).toMatchObject({ slug: 'v1', page_count: 2 });
    });

    it('keeps serving the frozen pages after the live pages change', async () => {
      await editPage(server, owner, ws, 'api/auth.md', 'Tokens last one day now.');
      await createPage(server, owner, ws, 'api/new.md', {
        title: 'New',
        body: 'Added later.',
        publish: true,
      });

      const live = await get(server, '/p/product-docs/api/auth');
      expect(live.text).toContain('Tokens last one day now.');
      const frozen = await get(server, '/p/product-docs/v/v1/api/auth');
      expect(frozen.status).toBe(200);
      expect(frozen.text).toContain('Tokens last one hour.');
      expect(frozen.text).not.toContain('one day now');
      expect(frozen.text).toContain(`src="/p/product-docs/v/v1/uploads/${logo}"`);
      expect((await get(server, `/p/product-docs/v/v1/uploads/${logo}`)).status).toBe(200);
      expect((await get(server, '/p/product-docs/v/v1/api/new')).status).toBe(404);
      expect((await get(server, '/p/product-docs/v/v1/draft')).status).toBe(404);
      expect((await get(server, '/p/product-docs/v/v1')).headers.get('location')).toBe(
        '/p/product-docs/v/v1/',
      );
      // The version menu lists the live pages and the version.
      expect(frozen.text).toContain('<a href="/p/product-docs/v/v1/" aria-current="true">v1.0</a>');
      expect(frozen.text).toContain('<a href="/p/product-docs/">Latest</a>');
    });

    it('serves the default version at the site root, and the live pages under v/latest/', async () => {
      expect((await server.request('PUT', versions('/v1/default'), { token: viewer.token })).status).toBe(
        403,
      );
      const made = await server.request('PUT', versions('/v1/default'), { token: owner.token });
      expect(made.status).toBe(200);
      expect(made.body.is_default).toBe(true);
      const settings = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/settings`, {
        token: owner.token,
      });
      expect(settings.body.default_version).toBe('v1');

      const root = await get(server, '/p/product-docs/api/auth');
      expect(root.status).toBe(200);
      expect(root.text).toContain('Tokens last one hour.');
      expect((await get(server, '/p/product-docs/')).text).toContain('Version one home.');
      const latest = await get(server, '/p/product-docs/v/latest/api/auth');
      expect(latest.text).toContain('Tokens last one day now.');

      const list = await server.request('GET', versions('?limit=1'), { token: viewer.token });
      expect(list.body.data).toEqual([expect.objectContaining({ slug: 'v1', is_default: true })]);
      expect(list.body.next_cursor).toBeNull();
    });

    it('paginates and deletes versions; deleting the default returns the root to the live pages', async () => {
      const v2 = await server.request('POST', versions(), {
        token: owner.token,
        body: { slug: 'v2.0', name: 'Two' },
      });
      expect(v2.status).toBe(201);
      expect(v2.body.page_count).toBe(3);
      const first = await server.request('GET', versions('?limit=1'), { token: viewer.token });
      expect(first.body.data.map((v: { slug: string }) => v.slug)).toEqual(['v2.0']);
      expect(first.body.next_cursor).toEqual(expect.any(String));
      const second = await server.request('GET', versions(`?limit=1&cursor=${first.body.next_cursor}`), {
        token: viewer.token,
      });
      expect(second.body.data.map((v: { slug: string }) => v.slug)).toEqual(['v1']);
      expect(second.body.next_cursor).toBeNull();

      expect((await server.request('DELETE', versions('/v1'), { token: viewer.token })).status).toBe(403);
      expect((await server.request('DELETE', versions('/v1'), { token: owner.token })).status).toBe(204);
      expect((await get(server, '/p/product-docs/v/v1/api/auth')).status).toBe(404);
      expect((await get(server, '/p/product-docs/api/auth')).text).toContain('Tokens last one day now.');
      const settings = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/settings`, {
        token: owner.token,
      });
      expect(settings.body.default_version).toBeNull();
    });
  });

  describe('repository files of a version', () => {
    const A = Buffer.concat([PNG, Buffer.from('docs image as tagged')]);
    const B = Buffer.concat([PNG, Buffer.from('attachment as tagged')]);

    it('serves images beside pages and Obsidian attachments as they were at the tag, site and export', async () => {
      const assets = await createWorkspace(server, owner, 'frozen-assets');
      const tree = path.join(server.dataDir, 'workspaces', assets.id);
      const write = (rel: string, bytes: Buffer) => {
        fs.mkdirSync(path.dirname(path.join(tree, rel)), { recursive: true });
        fs.writeFileSync(path.join(tree, rel), bytes);
      };
      write('docs/img/a.png', A);
      write('docs/img/.hidden.png', PNG);
      write('docs/img/unreferenced.png', PNG);
      write('Attachments/b.png', B);
      // A symlink in the tree is stored as mode 120000 and must never be served from the tag.
      fs.symlinkSync('a.png', path.join(tree, 'docs/img/link.png'));
      await createPage(server, owner, assets, 'docs/page.md', {
        title: 'Page',
        body: '![A](img/a.png)\n\n![[b.png]]\n\n![H](img/.hidden.png)\n\n![L](img/link.png)\n',
        publish: true,
      });
      await setSettings(server, owner, assets, { public_site: true });
      const made = await server.request('POST', `/api/v1/workspaces/${assets.id}/versions`, {
        token: owner.token,
        body: { slug: 'v1', name: 'One' },
      });
      expect(made.status).toBe(201);

      // The live tree moves on: one image changes, the attachment goes.
      write('docs/img/a.png', Buffer.concat([PNG, Buffer.from('changed later')]));
      fs.rmSync(path.join(tree, 'Attachments/b.png'));

      const base = '/p/frozen-assets/v/v1';
      const page = await get(server, `${base}/docs/page`);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`src="${base}/docs/img/a.png"`);
      expect(page.text).toContain(`src="${base}/Attachments/b.png"`);
      for (const [rel, bytes] of [
        ['docs/img/a.png', A],
        ['Attachments/b.png', B],
      ] as const) {
        const res = await fetch(`${server.url}${base}/${rel}`);
        expect(res.status, rel).toBe(200);
        expect(res.headers.get('content-type'), rel).toBe('image/png');
        expect(Buffer.from(await res.arrayBuffer()).equals(bytes), rel).toBe(true);
      }
      for (const rel of ['docs/img/.hidden.png', 'docs/img/unreferenced.png', 'docs/img/link.png'])
        expect((await get(server, `${base}/${rel}`)).status, rel).toBe(404);

      const exported = await fetch(`${server.url}/api/v1/workspaces/${assets.id}/export?version=v1`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(exported.status).toBe(200);
      const files = await unzip(Buffer.from(await exported.arrayBuffer()));
      expect(files.get('docs/img/a.png')?.equals(A)).toBe(true);
      expect(files.get('Attachments/b.png')?.equals(B)).toBe(true);
      expect(files.get('docs/page.html')!.toString()).toContain('src="img/a.png"');
      expect(files.has('docs/img/.hidden.png')).toBe(false);
      expect(files.has('docs/img/link.png')).toBe(false);
      expect(files.has('docs/img/unreferenced.png')).toBe(false);
    });
  });
});

/** The files of a ZIP by name. */
async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const files = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    files.set(entry.fileName, Buffer.concat(chunks));
  }
  return files;
}
