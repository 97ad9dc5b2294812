/**
 * A Docusaurus repository's `.mdx` files are pages like its `.md` files: written into a
 * workspace as a clone brings them, they are in the tree, read and written through the
 * content API keeping their extension, found by search, served extension-less on the
 * published site (Tabs rendered), held by the export, listed by the sidebars.js navigation,
 * and a `.md` of the same name wins the URL with the quality report naming the clash.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { eventually } from '../helpers/eventually.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createWorkspace, type TestWorkspace } from '../helpers/workspace-access.js';
import { editPage, get, setSettings, startPublishing } from '../publishing/publishing-helpers.js';

const page = (title: string, body: string) => `---\ntitle: ${title}\nstatus: published\n---\n\n${body}`;

const FILES: Record<string, string> = {
  'docusaurus.config.js':
    "module.exports = { presets: [['classic', { docs: { sidebarPath: './sidebars.js' } }]] };\n",
  'sidebars.js': "module.exports = { docs: ['intro', 'install', 'guides/tabs', 'clash'] };\n",
  'docs/intro.md': page('Intro', 'Start with [the install](./install.mdx) or [tabs](guides/tabs).\n'),
  'docs/install.mdx': page(
    'Install',
    `import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';

# Install

<Tabs>
  <TabItem value="npm" label="npm" default>

    Install with **npm** and a zeppelin.

  </TabItem>
  <TabItem value="yarn" label="Yarn">
    Install with yarn.
  </TabItem>
</Tabs>

Back to [the intro](./intro.md).
`,
  ),
  'docs/guides/tabs.mdx': page('Tabs guide', 'Tabs explained at length for readers.\n'),
  'docs/clash.md': page('Clash in Markdown', 'The Markdown one.\n'),
  'docs/clash.mdx': page('Clash in MDX', 'The MDX one.\n'),
};

let server: TestServer;
let owner: TestUser;
let ws: TestWorkspace;

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

/** The sidebar's links as `title -> href`. */
const sidebarLinks = (html: string): string[] =>
  [
    ...(/<nav id="site-nav"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '').matchAll(
      /<a href="([^"]+)"[^>]*>([^<]*)<\/a>/g,
    ),
  ].map((m) => `${m[2]} -> ${m[1]}`);

/** The page's own article, without the sidebar and the other chrome. */
const article = (html = ''): string => /<article class="article">([\s\S]*?)<\/article>/.exec(html)?.[1] ?? '';

const content = (rel: string) => `/api/v1/content/${ws.slug}/${rel}`;

beforeAll(async () => {
  server = await startPublishing();
  owner = await registerUser(server);
  ws = await createWorkspace(server, owner, 'mdx');
  const root = path.join(server.dataDir, 'workspaces', ws.id);
  for (const [rel, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  await setSettings(server, owner, ws, { public_site: true });
  await server.request('GET', content('docs/intro.md'), { token: owner.token });
  await eventually(async () => (await get(server, '/p/mdx/docs/install')).status === 200, 30_000);
}, 120_000);

afterAll(() => server?.close());

describe('.mdx pages', () => {
  it('are in the tree with their extension, and read through the content API', async () => {
    const tree = await server.request('GET', content('tree'), { token: owner.token });
    expect(tree.status).toBe(200);
    const paths: string[] = [];
    const walk = (nodes: Array<{ type: string; path: string; children: unknown[] }>) => {
      for (const n of nodes) {
        if (n.type === 'page') paths.push(n.path);
        walk(n.children as typeof nodes);
      }
    };
    walk(tree.body.tree);
    expect(paths).toEqual(
      expect.arrayContaining(['docs/install.mdx', 'docs/guides/tabs.mdx', 'docs/clash.mdx', 'docs/clash.md']),
    );
    const read = await server.request('GET', content('docs/install.mdx'), { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body.path).toBe('docs/install.mdx');
    expect(read.body.title).toBe('Install');
    expect(read.body.content).toContain('<Tabs>');
  });

  it('keep their extension when written, moved and created', async () => {
    const saved = await editPage(
      server,
      owner,
      ws,
      'docs/guides/tabs.mdx',
      'Tabs explained again, edited.\n',
    );
    expect(saved.path).toBe('docs/guides/tabs.mdx');
    const onDisk = fs.readFileSync(
      path.join(server.dataDir, 'workspaces', ws.id, 'docs/guides/tabs.mdx'),
      'utf8',
    );
    expect(onDisk).toContain('title: Tabs guide');
    expect(onDisk).toContain('Tabs explained again, edited.');

    const created = await server.request('POST', content('docs/extra.mdx'), {
      token: owner.token,
      body: { title: 'Extra', body: 'More MDX.' },
    });
    expect(created.status).toBe(201);
    expect(created.body.path).toBe('docs/extra.mdx');
    const plain = await server.request('POST', content('docs/plain'), {
      token: owner.token,
      body: { title: 'Plain', body: 'Plain Markdown.' },
    });
    expect(plain.body.path).toBe('docs/plain.md');

    const moved = await server.request('PATCH', content('docs/extra.mdx'), {
      token: owner.token,
      body: { new_path: 'docs/renamed' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.path).toBe('docs/renamed.mdx');
    expect(fs.existsSync(path.join(server.dataDir, 'workspaces', ws.id, 'docs/renamed.mdx'))).toBe(true);
  });

  it('are found by search', async () => {
    await eventually(async () => {
      const found = await server.request('GET', `/api/v1/workspaces/${ws.id}/search?q=zeppelin`, {
        token: owner.token,
      });
      return (
        found.status === 200 &&
        found.body.results?.some((r: { path: string }) => r.path === 'docs/install.mdx')
      );
    }, 15_000);
  });

  it('are served extension-less on the site with Tabs rendered, listed by sidebars.js', async () => {
    const install = await get(server, '/p/mdx/docs/install');
    expect(install.status).toBe(200);
    expect(install.text).not.toContain('&lt;Tabs');
    expect(install.text).not.toContain('import Tabs');
    expect(install.text).toContain('<strong>npm</strong>');
    expect(install.text).toContain('href="/p/mdx/docs/intro"');
    expect(sidebarLinks(install.text)).toEqual([
      'Intro -> /p/mdx/docs/intro',
      'Install -> /p/mdx/docs/install',
      'Tabs guide -> /p/mdx/docs/guides/tabs',
      'Clash in Markdown -> /p/mdx/docs/clash',
    ]);
    const intro = await get(server, '/p/mdx/docs/intro');
    expect(article(intro.text)).toContain('href="/p/mdx/docs/install"');
    // Docusaurus's extension-less link names the page by its URL.
    expect(article(intro.text)).toContain('href="/p/mdx/docs/guides/tabs"');
    // The file name with its extension redirects to the page's URL.
    const withExt = await fetch(`${server.url}/p/mdx/docs/install.mdx`, { redirect: 'manual' });
    expect([200, 301, 302, 308]).toContain(withExt.status);
  });

  it('lose a clash of names to the .md page, which the quality report names', async () => {
    const clash = await get(server, '/p/mdx/docs/clash');
    expect(clash.status).toBe(200);
    expect(clash.text).toContain('The Markdown one.');
    const quality = await server.request('GET', `/api/v1/workspaces/${ws.id}/quality`, {
      token: owner.token,
    });
    expect(quality.status).toBe(200);
    const issues = quality.body.pages.flatMap((p: { issues: unknown[] }) => p.issues);
    expect(issues).toContainEqual(
      expect.objectContaining({ type: 'shadowed_page', path: 'docs/clash.mdx', target: 'docs/clash.md' }),
    );
    expect(issues).not.toContainEqual(expect.objectContaining({ type: 'dead_link', path: 'docs/intro.md' }));
  });

  it('are in the export as HTML files', async () => {
    const res = await fetch(`${server.url}/api/v1/workspaces/${ws.id}/export`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.status).toBe(200);
    const files = await unzip(Buffer.from(await res.arrayBuffer()));
    const install = files.get('docs/install.html')?.toString('utf8');
    expect(install).toContain('<strong>npm</strong>');
    expect(files.get('docs/clash.html')?.toString('utf8')).toContain('The Markdown one.');
    const intro = article(files.get('docs/intro.html')?.toString('utf8'));
    expect(intro).toContain('href="install.html"');
    expect(intro).toContain('href="guides/tabs.html"');
  });
});
