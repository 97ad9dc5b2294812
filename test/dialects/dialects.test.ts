/**
 * Repositories of other docs tools published as they are: an Obsidian vault, an MkDocs
 * Material site and a Docusaurus site (test/dialects/fixtures.ts) are written into
 * workspaces as a clone would bring them, then read through the published site, the
 * export, search and the quality report: every construct renders with none of its syntax
 * left in the text, every image loads, and files nobody references stay private.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { eventually } from '../helpers/eventually.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, type TestWorkspace } from '../helpers/workspace-access.js';
import { get, setSettings, startPublishing } from '../publishing/publishing-helpers.js';
import { DOCUSAURUS, MKDOCS, VAULT } from './fixtures.js';

let server: TestServer;
let owner: TestUser;
const spaces: Record<string, TestWorkspace> = {};

/** The article's text as a reader sees it: tags dropped, entities decoded, MathML's TeX annotation left out. */
function articleText(html: string): string {
  const article = /<article class="article">([\s\S]*?)<\/article>/.exec(html)?.[1] ?? '';
  return article
    .replace(/<annotation[\s\S]*?<\/annotation>/g, '')
    .replace(/<pre class="mermaid">[\s\S]*?<\/pre>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** Syntax of the tools that must never reach a reader as text. */
const LEFTOVER = [
  '![[',
  '[!',
  '!!!',
  '???',
  '===',
  ':::',
  '<Tabs',
  '<TabItem',
  '</Tab',
  '<Admonition',
  '<Highlight',
  'import ',
  'export const',
  ':material-',
  ':octicons-',
  ':rocket:',
  ':smile:',
  '$$',
  '^memex',
];

function expectNoSyntax(html: string): void {
  const text = articleText(html);
  for (const syntax of LEFTOVER) expect(text, `"${syntax}" left in the text`).not.toContain(syntax);
}

/** Every `<img src>` of the article. */
const imageSources = (html: string): string[] =>
  [
    ...(/<article class="article">([\s\S]*?)<\/article>/.exec(html)?.[1] ?? '').matchAll(
      /<img [^>]*src="([^"]+)"/g,
    ),
  ].map((m) => m[1]!.replace(/&amp;/g, '&'));

async function expectImagesLoad(html: string): Promise<void> {
  const sources = imageSources(html);
  expect(sources.length).toBeGreaterThan(0);
  for (const src of sources) {
    const res = await fetch(server.url + src);
    expect(res.status, src).toBe(200);
    expect(res.headers.get('content-type'), src).toMatch(/^image\//);
  }
}

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

beforeAll(async () => {
  server = await startPublishing();
  owner = await registerUser(server);
  for (const [slug, files, probe] of [
    ['vault', VAULT, 'Home.md'],
    ['mkdocs', MKDOCS, 'docs/index.md'],
    ['docusaurus', DOCUSAURUS, 'docs/intro.md'],
  ] as const) {
    const ws = await createWorkspace(server, owner, slug);
    spaces[slug] = ws;
    // Written straight into the tree, as a clone of the repository would bring them.
    for (const [rel, content] of Object.entries(files)) {
      const file = path.join(server.dataDir, 'workspaces', ws.id, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
    await setSettings(server, owner, ws, { public_site: true });
    await server.request('GET', `/api/v1/content/${slug}/${probe}`, { token: owner.token });
  }
  await eventually(async () => (await get(server, '/p/vault/Concepts/Loop')).status === 200, 30_000);
  await eventually(async () => (await get(server, '/p/mkdocs/docs/setup/install')).status === 200, 30_000);
  await eventually(async () => (await get(server, '/p/docusaurus/docs/intro')).status === 200, 30_000);
}, 120_000);

afterAll(() => server?.close());

describe('an Obsidian vault', () => {
  it('shows attachments found by name, transclusions, block references and foldable callouts', async () => {
    const home = await get(server, '/p/vault/Home');
    expect(home.status).toBe(200);
    expectNoSyntax(home.text);
    // Attachments by file name anywhere in the vault; `|300` is the width.
    expect(home.text).toContain('<img src="/p/vault/Attachments/Engelbart.jpg" alt="Engelbart"');
    expect(home.text).toContain('<img src="/p/vault/Attachments/diagram.png" alt="diagram" width="300"');
    await expectImagesLoad(home.text);
    // Note, heading and block transclusion.
    expect(home.text).toContain('<div class="embed">');
    expect(articleText(home.text)).toContain('Hypertext links documents.');
    expect(articleText(home.text).match(/Vannevar Bush imagined the memex\./g)?.length).toBe(3);
    // The link to a block lands on the block's id.
    expect(home.text).toContain('href="/p/vault/Concepts/Hypertext#^memex"');
    // Foldable callouts are <details>, closed for `-`, open for `+`, titled without the marker.
    expect(home.text).toContain(
      '<details class="callout callout-tip"><summary class="callout-title">Folded tip</summary>',
    );
    expect(home.text).toContain(
      '<details class="callout callout-question" open><summary class="callout-title">Open question</summary>',
    );
    expect(home.text).not.toContain('- Folded tip');
    expect(home.text).toContain('😄');
    expect(home.text).toContain('class="katex"');
  });

  it('gives a block its id, takes the closest of two files with one name, and stops embed cycles', async () => {
    const note = await get(server, '/p/vault/Concepts/Hypertext');
    expect(note.text).toContain('<p id="^memex">Vannevar Bush imagined the memex.</p>');
    expect(imageSources(note.text)).toContain('/p/vault/Concepts/Figures/diagram.png');
    const loop = await get(server, '/p/vault/Concepts/Loop');
    expect(loop.status).toBe(200);
    // Loop → Home → Hypertext → Loop stops at the cycle: the inner embed of Loop is a link.
    expect(loop.text).toContain('href="/p/vault/Concepts/Loop"');
    expect(articleText(loop.text)).toContain('Welcome to the vault.');
  });

  it('serves only referenced files, never hidden ones, and links the stylesheet only where math is', async () => {
    expect((await get(server, '/p/vault/Private/secret.png')).status).toBe(404);
    expect((await get(server, '/p/vault/.obsidian/app.json')).status).toBe(404);
    expect((await get(server, '/p/vault/Attachments/../Private/secret.png')).status).toBe(404);
    const home = await get(server, '/p/vault/Home');
    const css = /href="([^"]*katex[^"]*\.css)"/.exec(home.text)?.[1];
    expect(css).toBeTruthy();
    const sheet = await get(server, css!);
    expect(sheet.status).toBe(200);
    const font = /url\((fonts\/KaTeX_Main-Regular\.woff2)\)/.exec(sheet.text)?.[1];
    const fontRes = await fetch(new URL(font!, server.url + css!));
    expect(fontRes.headers.get('content-type')).toBe('font/woff2');
    expect((await get(server, '/p/vault/Concepts/Hypertext')).text).not.toContain('katex.min.css');
    expect(home.text).not.toContain('mermaid.min.js');
  });
  it('renders a page of 60,000 embeds with the expansion bounded, while the server keeps answering', async () => {
    const body = Array.from({ length: 30_000 }, (_, i) =>
      i % 2 ? '![[Hypertext]]' : '![[diagram.png|40]]',
    ).join('\n\n');
    await createPage(server, owner, spaces.vault!, 'Stress.md', {
      title: 'Stress',
      body: `${body}\n\n${body}\n`,
      publish: true,
    });
    const [page, health] = await Promise.all([get(server, '/p/vault/Stress'), get(server, '/api/health')]);
    expect(health.status).toBe(200);
    expect(page.status).toBe(200);
    // At most 200 notes are expanded; the rest stay links.
    expect(page.text.match(/<div class="embed">/g)?.length ?? 0).toBeLessThanOrEqual(200);
  }, 60_000);
});

describe('an MkDocs Material site', () => {
  it('renders admonitions, collapsible blocks, content tabs, icons, emoji and math', async () => {
    const index = await get(server, '/p/mkdocs/docs/');
    expect(index.status).toBe(200);
    expectNoSyntax(index.text);
    expect(index.text).toContain('<p class="callout-title">Before you start</p>');
    expect(index.text).toContain(
      '<details class="callout callout-tip"><summary class="callout-title">Tip</summary>',
    );
    expect(index.text).toContain('<details class="callout callout-warning" open>');
    expect(index.text).toContain('<div class="callout callout-danger" role="note">\n<p>No title bar.</p>');
    expect(index.text).toContain('🚀');
    expect(index.text).toContain('<math');
    const install = await get(server, '/p/mkdocs/docs/setup/install');
    expectNoSyntax(install.text);
    expect(install.text).toContain('<p class="tab-label">pip</p>');
    expect(install.text).toContain('<p class="tab-label">conda</p>');
    expect(install.text).toContain('pip install widget');
    await expectImagesLoad(install.text);
    const pdf = /href="([^"]*sheet\.pdf)"/.exec(install.text)?.[1];
    expect(pdf).toBe('/p/mkdocs/docs/files/sheet.pdf');
    const res = await fetch(server.url + pdf!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
  });

  it('renders a tab label as Markdown: inline code kept, icon removed', async () => {
    const colors = await get(server, '/p/mkdocs/docs/setup/colors');
    expect(colors.status).toBe(200);
    expectNoSyntax(colors.text);
    expect(colors.text).toContain('<p class="tab-label"><code>docs/extra.css</code></p>');
    expect(colors.text).toContain('<p class="tab-label"><code>mkdocs.yml</code></p>');
  });
});

describe('a Docusaurus site', () => {
  it('hides MDX imports, renders <Tabs>, <Admonition> and admonitions, and shows unknown components’ children', async () => {
    const intro = await get(server, '/p/docusaurus/docs/intro');
    expect(intro.status).toBe(200);
    expectNoSyntax(intro.text);
    expect(intro.text).toContain('<div class="tab-panel tab-selected"><p class="tab-label">npm</p>');
    expect(intro.text).toContain('<p>Install with <strong>npm</strong>.</p>');
    expect(intro.text).toContain('<p class="tab-label">Yarn</p>');
    expect(intro.text).toContain('<p class="callout-title">Heads up</p>');
    expect(intro.text).toContain('<p class="callout-title">Docusaurus 3 title</p>');
    expect(intro.text).toContain('<p class="callout-title">Old style</p>');
    expect(articleText(intro.text)).toContain('Highlighted words stay.');
    // `/img/logo.png` is what Docusaurus serves from `static/img/logo.png`.
    expect(imageSources(intro.text)).toEqual(['/p/docusaurus/static/img/logo.png']);
    await expectImagesLoad(intro.text);
  });

  it('serves the images inside links, from static/ and beside the page', async () => {
    const talks = await get(server, '/p/docusaurus/docs/talks');
    expect(talks.status).toBe(200);
    expect(imageSources(talks.text)).toEqual([
      '/p/docusaurus/static/img/cover.png',
      '/p/docusaurus/docs/assets/slides.png',
    ]);
    await expectImagesLoad(talks.text);
    expect(talks.text).toContain('href="https://video.example.com/watch?v=1"');
  });

  it('lists unknown components and icons in the quality report, and indexes callout and tab text for search', async () => {
    const quality = await server.request('GET', `/api/v1/workspaces/${spaces.docusaurus!.id}/quality`, {
      token: owner.token,
    });
    expect(quality.status).toBe(200);
    const issues = quality.body.pages.flatMap((p: { issues: unknown[] }) => p.issues);
    expect(issues).toContainEqual(
      expect.objectContaining({ type: 'unknown_component', target: 'Highlight', path: 'docs/intro.md' }),
    );
    expect(issues.some((i: { target?: string }) => i.target === 'Tabs' || i.target === 'TabItem')).toBe(
      false,
    );
    const mk = await server.request('GET', `/api/v1/workspaces/${spaces.mkdocs!.id}/quality`, {
      token: owner.token,
    });
    const icons = mk.body.pages.flatMap((p: { issues: Array<{ type: string; target?: string }> }) =>
      p.issues.filter((i) => i.type === 'unsupported_icon').map((i) => i.target),
    );
    expect(icons).toEqual([
      ':material-check:',
      ':octicons-star-16:',
      ':octicons-file-code-16:',
      ':octicons-file-code-16:',
    ]);
    await eventually(async () => {
      const found = await server.request('GET', `/api/v1/search?q=collapsed&workspace=mkdocs`, {
        token: owner.token,
      });
      return (
        found.status === 200 &&
        found.body.results?.length > 0 &&
        !found.body.results[0].snippet.includes('???')
      );
    }, 15_000);
  });
});

describe('the export', () => {
  it('holds the repository images at their paths, with relative links that resolve, and KaTeX offline', async () => {
    const res = await fetch(`${server.url}/api/v1/workspaces/${spaces.vault!.id}/export`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.status).toBe(200);
    const files = await unzip(Buffer.from(await res.arrayBuffer()));
    expect(files.has('Attachments/Engelbart.jpg')).toBe(true);
    expect(files.has('Concepts/Figures/diagram.png')).toBe(true);
    expect(files.has('Private/secret.png')).toBe(false);
    expect(files.has('_assets/katex/katex.min.css')).toBe(true);
    expect([...files.keys()].some((f) => f.startsWith('_assets/katex/fonts/'))).toBe(true);
    for (const name of ['Home.html', 'Concepts/Hypertext.html']) {
      const html = files.get(name)!.toString();
      for (const m of html.matchAll(/\s(?:src|href)="([^"#:]+)(?:#[^"]*)?"/g)) {
        const target = path.posix.normalize(
          path.posix.join(path.posix.dirname(name), decodeURIComponent(m[1]!)),
        );
        expect(files.has(target), `${name} → ${m[1]}`).toBe(true);
      }
    }
    expect(files.get('Home.html')!.toString()).toContain('src="Attachments/Engelbart.jpg"');
  });
});
