/**
 * The static export over HTTP: a ZIP of exactly the published pages as HTML, with the
 * theme's CSS, the site's icon and the referenced uploads, whose relative links all resolve to files in
 * the ZIP (so it works opened from disk), streamed by GET and POST alike, rate limited.
 */
import path from 'node:path';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, grantRole, type TestWorkspace } from '../helpers/workspace-access.js';
import { editPage, PNG, setSettings, startPublishing, upload } from './publishing-helpers.js';

let server: TestServer;
let owner: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let ws: TestWorkspace;
let image: string;
let unused: string;

async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const files = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    files.set(entry.fileName, Buffer.concat(chunks));
  }
  return files;
}

async function download(method: 'GET' | 'POST', token: string, srv = server, wsId = ws.id, query = '') {
  const res = await fetch(`${srv.url}/api/v1/workspaces/${wsId}/export${query}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
  });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Every href and src of an HTML file that is relative (no scheme, no fragment-only, no root). */
function relativeLinks(html: string): string[] {
  return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)]
    .map((m) => m[1]!.replace(/&amp;/g, '&'))
    .filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('#'));
}

beforeAll(async () => {
  server = await startPublishing({ rateLimits: { export: { limit: 1000 } } });
  owner = await registerUser(server);
  viewer = await registerUser(server);
  outsider = await registerUser(server);
  ws = await createWorkspace(server, owner, 'export-docs');
  await grantRole(server, ws, viewer, 'viewer');
  image = await upload(server, owner, ws, 'chart.png', PNG);
  unused = await upload(server, owner, ws, 'unused.png', PNG);
  const page = (p: string, fields: Parameters<typeof createPage>[4]) =>
    createPage(server, owner, ws, p, fields);
  await page('index.md', {
    title: 'Export home',
    body: 'Go to [[guides/setup]] or [the API](reference/api.md#errors).',
    publish: true,
  });
  await page('guides/setup.md', {
    title: 'Setup',
    body: `See [[guides/advanced#tuning|advanced]], [a draft](../draft.md) and [home](../index.md).\n\n![Chart](../uploads/${image})\n\n[Example](https://example.com)\n`,
    publish: true,
  });
  await page('guides/advanced.md', {
    title: 'Advanced',
    body: '## Tuning\n\nTurn the knobs.',
    publish: true,
  });
  await page('reference/api.md', {
    title: 'API',
    body: '## Errors\n\nSee [setup](../guides/setup.md).',
    publish: true,
  });
  await page('draft.md', { title: 'Draft', body: 'Work in progress.' });
  await setSettings(server, owner, ws, { theme: 'amber' });
});

afterAll(() => server.close());

describe('static export', () => {
  it('streams a ZIP holding exactly the published pages, a folder index each, the CSS and referenced uploads', async () => {
    const { res, bytes } = await download('GET', viewer.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain('attachment; filename="export-docs-site.zip"');
    const files = await unzip(bytes);
    expect([...files.keys()].sort()).toEqual(
      [
        '_assets/favicon-amber.svg',
        '_assets/theme.css',
        // The search palette and its local index (test/publishing/site-search.browser.test.ts).
        '_assets/palette.js',
        '_assets/palette.css',
        '_assets/search-index.js',
        'guides/advanced.html',
        'guides/index.html',
        'guides/setup.html',
        'index.html',
        'reference/api.html',
        'reference/index.html',
        `uploads/${image}`,
      ].sort(),
    );
    expect(files.get(`uploads/${image}`)?.equals(PNG)).toBe(true);
    expect([...files.keys()]).not.toContain(`uploads/${unused}`);
    expect(files.get('_assets/theme.css')!.toString()).toContain('--bg:');
    expect(files.get('guides/setup.html')!.toString()).toContain('<h1>Setup</h1>');
    expect(files.get('guides/index.html')!.toString()).toContain('<a href="advanced.html">Advanced</a>');
  });

  it('makes every relative link resolve to a file in the ZIP, with no site URLs and no scripts needed', async () => {
    const files = await unzip((await download('POST', owner.token)).bytes);
    let checked = 0;
    for (const [name, content] of files) {
      if (!name.endsWith('.html')) continue;
      const html = content.toString('utf8');
      expect(html, name).not.toMatch(/(?:href|src)="\/p\//);
      expect(html, name).not.toMatch(/<script[^>]*\ssrc=/);
      expect(html, name).not.toContain('class="site-search"');
      for (const href of relativeLinks(html)) {
        const target = decodeURIComponent(href.split('#')[0]!.split('?')[0]!);
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(name), target));
        expect(files.has(resolved), `${name} links to ${href}, which is not in the ZIP`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
    const setup = files.get('guides/setup.html')!.toString();
    expect(setup).toContain('<a class="wikilink" href="advanced.html#tuning">advanced</a>');
    expect(setup).toContain('<a href="#">a draft</a>');
    expect(setup).toContain('<a href="../index.html">home</a>');
    expect(setup).toContain(`<img src="../uploads/${image}" alt="Chart"`);
    expect(setup).toContain('<link rel="stylesheet" href="../_assets/theme.css">');
    expect(files.get('index.html')!.toString()).toContain('href="reference/api.html#errors"');
  });

  it("links every page to the site's icon, the live pages' icon, inside the ZIP by a relative href", async () => {
    const files = await unzip((await download('GET', owner.token)).bytes);
    const live = await fetch(`${server.url}/p/${ws.slug}/_assets/favicon-amber.svg`);
    expect(live.status).toBe(200);
    expect(files.get('_assets/favicon-amber.svg')?.toString()).toBe(await live.text());
    const pages = [...files.keys()].filter((name) => name.endsWith('.html'));
    expect(pages.length).toBe(6);
    for (const name of pages) {
      const icons = [
        ...files
          .get(name)!
          .toString()
          .matchAll(/<link rel="icon" type="([^"]+)" href="([^"]+)">/g),
      ];
      expect(icons.length, name).toBe(1);
      const [, type, href] = icons[0]!;
      expect(type).toBe('image/svg+xml');
      expect(path.posix.join(path.posix.dirname(name), href!)).toBe('_assets/favicon-amber.svg');
    }
    expect(files.get('guides/setup.html')!.toString()).toContain('href="../_assets/favicon-amber.svg"');

    // The workspace's own favicon, once uploaded, is the icon of the export as of the live site.
    const iconic = await createWorkspace(server, owner, 'export-iconic');
    await createPage(server, owner, iconic, 'guides/index.md', {
      title: 'Guides',
      body: 'Hi.',
      publish: true,
    });
    expect(await upload(server, owner, iconic, 'favicon.png', PNG)).toBe('favicon.png');
    const own = await unzip((await download('GET', owner.token, server, iconic.id)).bytes);
    expect(own.get('_assets/favicon.png')?.equals(PNG)).toBe(true);
    expect([...own.keys()].filter((name) => name.includes('favicon'))).toEqual(['_assets/favicon.png']);
    expect(own.get('guides/index.html')!.toString()).toContain(
      '<link rel="icon" type="image/png" href="../_assets/favicon.png">',
    );
    expect(own.get('index.html')!.toString()).toContain('href="_assets/favicon.png"');
  });

  it('exports the default version when one is set, or the version ?version= names', async () => {
    const versioned = await createWorkspace(server, owner, 'export-versions');
    await createPage(server, owner, versioned, 'index.md', {
      title: 'Home',
      body: 'Frozen words.',
      publish: true,
    });
    const created = await server.request('POST', `/api/v1/workspaces/${versioned.id}/versions`, {
      token: owner.token,
      body: { slug: 'v1', name: 'Version 1' },
    });
    expect(created.status).toBe(201);
    await editPage(server, owner, versioned, 'index.md', 'Live words.');
    await setSettings(server, owner, versioned, { default_version: 'v1' });

    const byDefault = await download('GET', owner.token, server, versioned.id);
    expect(byDefault.res.status).toBe(200);
    expect(byDefault.res.headers.get('content-disposition')).toContain(
      'filename="export-versions-v1-site.zip"',
    );
    expect((await unzip(byDefault.bytes)).get('index.html')!.toString()).toContain('Frozen words.');

    const live = await download('POST', owner.token, server, versioned.id, '?version=latest');
    expect(live.res.headers.get('content-disposition')).toContain('filename="export-versions-site.zip"');
    expect((await unzip(live.bytes)).get('index.html')!.toString()).toContain('Live words.');

    const named = await download('GET', owner.token, server, versioned.id, '?version=v1');
    expect((await unzip(named.bytes)).get('index.html')!.toString()).toContain('Frozen words.');

    const unknown = await download('GET', owner.token, server, versioned.id, '?version=v9');
    expect(unknown.res.status).toBe(404);
    expect(JSON.parse(unknown.bytes.toString()).error).toBe('NOT_FOUND');
    const empty = await download('GET', owner.token, server, versioned.id, '?version=');
    expect(empty.res.status).toBe(400);
    expect(JSON.parse(empty.bytes.toString()).error).toBe('VALIDATION_ERROR');
  });

  it('needs read access: 401 anonymous, 404 for outsiders', async () => {
    expect((await fetch(`${server.url}/api/v1/workspaces/${ws.id}/export`)).status).toBe(401);
    const outside = await download('GET', outsider.token);
    expect(outside.res.status).toBe(404);
    expect(JSON.parse(outside.bytes.toString()).error).toBe('NOT_FOUND');
  });

  it('answers 429 with the rate-limit headers past the export limit', async () => {
    const limited = await startPublishing({ rateLimits: { export: { limit: 2 } } });
    try {
      const user = await registerUser(limited);
      const list = await limited.request('GET', '/api/v1/workspaces', { token: user.token });
      const wsId = list.body.data[0].id as string;
      expect((await download('GET', user.token, limited, wsId)).res.status).toBe(200);
      expect((await download('POST', user.token, limited, wsId)).res.status).toBe(200);
      const third = await download('GET', user.token, limited, wsId);
      expect(third.res.status).toBe(429);
      expect(JSON.parse(third.bytes.toString()).error).toBe('RATE_LIMITED');
      for (const header of [
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
        'retry-after',
      ]) {
        expect(third.res.headers.get(header), header).toBeTruthy();
      }
    } finally {
      await limited.close();
    }
  });
});
