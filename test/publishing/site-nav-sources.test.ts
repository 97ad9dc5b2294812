/**
 * The published site's sidebar follows the navigation of the tool a workspace's files come
 * from: MkDocs `nav:`, Docusaurus sidebars and `_category_` files, GitBook's SUMMARY.md, or
 * the folders (Folio's own rule and an Obsidian vault's), without rewriting a file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createWorkspace, type TestWorkspace } from '../helpers/workspace-access.js';
import { get, setSettings, startPublishing } from './publishing-helpers.js';

/** The sidebar as `title -> href` lines, nested entries indented, group toggles left out. */
function sidebar(html: string): string[] {
  const nav = /<nav id="site-nav"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  const lines: string[] = [];
  let depth = -1;
  for (const m of nav.matchAll(
    /<(\/?)ul>|<a href="([^"]+)"[^>]*>([^<]*)<\/a>|<summary><span>([^<]*)<\/span>/g,
  )) {
    if (m[1] === '' && m[0] === '<ul>') depth++;
    else if (m[1] === '/') depth--;
    else if (m[2]) lines.push(`${'  '.repeat(depth)}${m[3]} -> ${m[2]}`);
    else if (m[4]) lines.push(`${'  '.repeat(depth)}${m[4]}`);
  }
  return lines;
}

let server: TestServer;
let owner: TestUser;

/** A workspace whose files are written straight into its tree, as a clone would bring them. */
async function workspaceWith(slug: string, files: Record<string, string>): Promise<TestWorkspace> {
  const ws = await createWorkspace(server, owner, slug);
  const root = path.join(server.dataDir, 'workspaces', ws.id);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  await setSettings(server, owner, ws, { public_site: true });
  const pages = Object.keys(files).filter((f) => f.endsWith('.md'));
  // Reading a page new on disk has the index catch up with the files.
  await server.request('GET', `/api/v1/content/${ws.slug}/${pages[0]}`, { token: owner.token });
  const last = pages[pages.length - 1]!;
  await eventually(async () => {
    const res = await server.request('GET', `/api/v1/content/${ws.slug}/${last}`, { token: owner.token });
    return res.status === 200;
  }, 30_000);
  return ws;
}

const page = (title: string, extra = '') =>
  `---\ntitle: ${title}\nstatus: published\n${extra}---\n\n${title} text.\n`;

beforeAll(async () => {
  server = await startPublishing();
  owner = await registerUser(server);
}, 60_000);

afterAll(() => server.close());

describe("folders (Folio's own rule)", () => {
  it('links a folder to its index page once and lists folders before pages', async () => {
    const ws = await workspaceWith('plain', {
      'index.md': page('Home'),
      'api.md': page('API'),
      'getting-started/index.md': page('Getting started'),
      'getting-started/install.md': page('Install'),
      'getting-started/advanced/index.md': page('Advanced'),
      'getting-started/basics.md': page('Basics'),
      'zz-last.md': page('Pinned first', 'order: -1\n'),
    });
    const res = await get(server, `/p/${ws.slug}/getting-started/install`);
    expect(res.status).toBe(200);
    expect(sidebar(res.text)).toEqual([
      'Home -> /p/plain/',
      'Pinned first -> /p/plain/zz-last',
      'Getting started -> /p/plain/getting-started/',
      '  Advanced -> /p/plain/getting-started/advanced/',
      '  Basics -> /p/plain/getting-started/basics',
      '  Install -> /p/plain/getting-started/install',
      'API -> /p/plain/api',
    ]);
    // The folder's own page is its title link, never listed again inside it.
    const nav = /<nav id="site-nav"[\s\S]*?<\/nav>/.exec(res.text)![0];
    expect(nav.match(/>Getting started</g)).toHaveLength(1);
    expect(nav).toContain('<summary aria-label="Pages in Getting started"></summary>');
  });
});

describe('MkDocs', () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await workspaceWith('mk', {
      'mkdocs.yml': [
        'site_name: Mk',
        'docs_dir: site-docs',
        'theme:',
        '  name: material',
        '  features: [navigation.indexes]',
        'markdown_extensions:',
        '  - pymdownx.emoji:',
        '      emoji_index: !!python/name:material.extensions.emoji.twemoji',
        'extra:',
        '  analytics: !ENV GOOGLE_ANALYTICS_KEY',
        'nav:',
        '  - Home: index.md',
        '  - Setup:',
        '      - setup/index.md',
        '      - Installing it: setup/install.md',
        '      - setup/colors.md',
        '  - Plugins:',
        '      - plugins/search.md',
        '  - Changelog: https://example.com/changelog',
        '',
      ].join('\n'),
      'site-docs/index.md': page('Welcome'),
      'site-docs/setup/index.md': page('Setup overview'),
      'site-docs/setup/install.md': page('Install'),
      'site-docs/setup/colors.md': page('Changing the colors'),
      'site-docs/plugins/search.md': page('Built-in search'),
      'site-docs/not-in-nav.md': page('Orphan'),
      'README.md': page('Repository readme'),
    });
  });

  it('follows nav: with its labels, sections, section index pages and links', async () => {
    const res = await get(server, `/p/${ws.slug}/site-docs/setup/install`);
    expect(res.status).toBe(200);
    expect(sidebar(res.text)).toEqual([
      'Home -> /p/mk/site-docs/',
      'Setup -> /p/mk/site-docs/setup/',
      '  Installing it -> /p/mk/site-docs/setup/install',
      '  Changing the colors -> /p/mk/site-docs/setup/colors',
      'Plugins',
      '  Built-in search -> /p/mk/site-docs/plugins/search',
      'Changelog -> https://example.com/changelog',
    ]);
    // A page left out of nav is still served, outside the sidebar.
    expect((await get(server, `/p/${ws.slug}/site-docs/not-in-nav`)).status).toBe(200);
    // Previous and next follow the nav's reading order.
    expect(res.text).toMatch(/rel="prev" href="\/p\/mk\/site-docs\/setup\/"/);
    expect(res.text).toMatch(/rel="next" href="\/p\/mk\/site-docs\/setup\/colors"/);
  });

  it('says in the workspace what it follows, and an admin may choose the folders instead', async () => {
    const info = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/navigation`, {
      token: owner.token,
    });
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      nav_source: 'auto',
      following: 'mkdocs',
      detected: [{ source: 'mkdocs', file: 'mkdocs.yml' }],
      findings: [],
    });
    const saved = await setSettings(server, owner, ws, { nav_source: 'folio' });
    expect(saved.nav_source).toBe('folio');
    const res = await get(server, `/p/${ws.slug}/site-docs/setup/install`);
    expect(sidebar(res.text)).toContain('Repository readme -> /p/mk/README');
    const back = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/settings`, {
      token: owner.token,
    });
    expect(back.body.nav_source).toBe('folio');
    const bad = await server.request('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, {
      token: owner.token,
      body: { nav_source: 'hugo' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('VALIDATION_ERROR');
    await setSettings(server, owner, ws, { nav_source: 'auto' });
  });
});

describe('config files Folio does not read', () => {
  it('says so for a config larger than it parses, and follows the folders', async () => {
    const ws = await workspaceWith('mk-big', {
      'mkdocs.yml': `site_name: Big\nextra:\n${'  # padding\n'.repeat(4000)}nav:\n  - b.md\n`,
      'docs/a.md': page('Ay'),
      'docs/b.md': page('Bee'),
    });
    const info = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/navigation`, {
      token: owner.token,
    });
    expect(info.body).toMatchObject({
      following: 'folio',
      findings: [
        'mkdocs.yml is larger than 32 KB; Folio does not read it',
        'No mkdocs files were found; the site follows the folders',
      ],
    });
    expect(sidebar((await get(server, `/p/${ws.slug}/docs/a`)).text)).toEqual([
      'Docs',
      '  Ay -> /p/mk-big/docs/a',
      '  Bee -> /p/mk-big/docs/b',
    ]);
  });
});

describe('Docusaurus', () => {
  it('follows sidebars.js found through docusaurus.config.js, read as data', async () => {
    const ws = await workspaceWith('docu', {
      'website/docusaurus.config.js': [
        "const path = require('path');",
        'module.exports = {',
        "  title: 'Docu',",
        '  presets: [',
        "    ['classic', { docs: { path: '../docs', sidebarPath: require.resolve('./sidebars.js'), editUrl: process.env.EDIT } }],",
        '  ],',
        '};',
      ].join('\n'),
      'website/sidebars.js': [
        '/** @type {import("@docusaurus/plugin-content-docs").SidebarsConfig} */',
        'const sidebars = {',
        '  docs: [',
        "    'intro',",
        '    {',
        "      type: 'category',",
        "      label: 'Usage',",
        "      link: { type: 'doc', id: 'usage/index' },",
        "      items: ['usage/cli', { type: 'doc', id: 'usage/api', label: 'API reference' }],",
        '    },',
        "    { type: 'autogenerated', dirName: 'guides' },",
        "    { type: 'link', label: 'GitHub', href: 'https://github.com/example/docu' },",
        '  ],',
        '};',
        'module.exports = sidebars;',
      ].join('\n'),
      'docs/intro.md': page('Introduction', 'sidebar_label: Start here\n'),
      'docs/usage/index.md': page('Using it'),
      'docs/usage/cli.md': page('CLI'),
      'docs/usage/api.md': page('API'),
      'docs/guides/02-second.md': page('Second guide'),
      'docs/guides/01-first.md': page('First guide'),
      'docs/guides/advanced/_category_.json': '{ "label": "Advanced topics", "position": 0 }',
      'docs/guides/advanced/deep.md': page('Deep dive'),
      'docs/guides/last.md': page('Last guide', 'sidebar_position: 9\n'),
    });
    const res = await get(server, `/p/${ws.slug}/docs/usage/cli`);
    expect(res.status).toBe(200);
    expect(sidebar(res.text)).toEqual([
      'Start here -> /p/docu/docs/intro',
      'Usage -> /p/docu/docs/usage/',
      '  CLI -> /p/docu/docs/usage/cli',
      '  API reference -> /p/docu/docs/usage/api',
      'Advanced topics',
      '  Deep dive -> /p/docu/docs/guides/advanced/deep',
      'First guide -> /p/docu/docs/guides/01-first',
      'Second guide -> /p/docu/docs/guides/02-second',
      'Last guide -> /p/docu/docs/guides/last',
      'GitHub -> https://github.com/example/docu',
    ]);
  });

  it('refuses a sidebars.js that runs code, says so, and follows the docs folder', async () => {
    const ws = await workspaceWith('docu-code', {
      'docusaurus.config.js':
        "export default { presets: [['classic', { docs: { sidebarPath: './sidebars.js' } }]] };",
      'sidebars.js': "const fs = require('fs');\nmodule.exports = { docs: fs.readdirSync('docs') };\n",
      'docs/b.md': page('Bee'),
      'docs/a.md': page('Ay', 'sidebar_position: 2\n'),
      'docs/c.md': page('Sea', 'sidebar_position: 1\n'),
    });
    const res = await get(server, `/p/${ws.slug}/docs/a`);
    expect(sidebar(res.text)).toEqual([
      'Sea -> /p/docu-code/docs/c',
      'Ay -> /p/docu-code/docs/a',
      'Bee -> /p/docu-code/docs/b',
    ]);
    const info = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/navigation`, {
      token: owner.token,
    });
    expect(info.body.following).toBe('docusaurus');
    expect(info.body.findings).toEqual([
      'sidebars.js: line 2 uses a function call, which Folio does not evaluate; the sidebar follows the docs folder',
    ]);
  });
});

describe('GitBook and Obsidian', () => {
  it('follows SUMMARY.md with its groups and nested pages', async () => {
    const ws = await workspaceWith('book', {
      'SUMMARY.md': [
        '# Table of contents',
        '',
        '* [Introduction](README.md)',
        '',
        '## Getting Started',
        '',
        '* [Quick start](getting-started/quick%20start.md)',
        '* [Concepts](concepts/README.md)',
        '  * [Spaces](concepts/spaces.md)',
        '  * [Blocks](concepts/blocks.md)',
        '',
        '## Reference',
        '',
        '* [API](reference/api.md)',
        '* [Status page](https://status.example.com)',
        '',
      ].join('\n'),
      'README.md': page('Intro page'),
      'getting-started/quick start.md': page('Quick start page'),
      'concepts/README.md': page('Concepts page'),
      'concepts/spaces.md': page('Spaces page'),
      'concepts/blocks.md': page('Blocks page'),
      'reference/api.md': page('API page'),
    });
    const res = await get(server, `/p/${ws.slug}/concepts/spaces`);
    expect(res.status).toBe(200);
    const lines = sidebar(res.text);
    expect(lines).toEqual([
      'Introduction -> /p/book/README',
      'Getting Started',
      '  Quick start -> /p/book/getting-started/quick%20start',
      '  Concepts -> /p/book/concepts/README',
      '    Spaces -> /p/book/concepts/spaces',
      '    Blocks -> /p/book/concepts/blocks',
      'Reference',
      '  API -> /p/book/reference/api',
      '  Status page -> https://status.example.com',
    ]);
  });

  it('shows an Obsidian vault by its folders', async () => {
    const ws = await workspaceWith('vault', {
      '.obsidian/app.json': '{}',
      'Welcome.md': page('Welcome'),
      'Projects/Alpha.md': page('Alpha'),
      'Attachments/notes.md': page('Attachment notes'),
    });
    const res = await get(server, `/p/${ws.slug}/Welcome`);
    expect(sidebar(res.text)).toEqual([
      'Attachments',
      '  Attachment notes -> /p/vault/Attachments/notes',
      'Projects',
      '  Alpha -> /p/vault/Projects/Alpha',
      'Welcome -> /p/vault/Welcome',
    ]);
    const info = await server.request('GET', `/api/v1/workspaces/${ws.id}/admin/navigation`, {
      token: owner.token,
    });
    expect(info.body).toMatchObject({
      following: 'folio',
      detected: [{ source: 'obsidian', file: '.obsidian' }],
    });
  });
});
