import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeSnippet, safeHref } from './escape.js';
import {
  extractHeadingIds,
  extractLinks,
  isPageHref,
  pageRoute,
  parseWikilink,
  relativeHref,
  resolvePageTarget,
  resolveRelativeHref,
  slugify,
  wikilinkTargetPath,
  extensionlessPageTarget,
} from './links.js';
import { createRenderer } from './markdown.js';
import { WikilinkResolver } from './wikilink-resolver.js';

describe('slugify', () => {
  it('is stable, lower case and keeps letters of every script', () => {
    expect(slugify('Getting Started!')).toBe('getting-started');
    expect(slugify('  Café & Crème  ')).toBe('cafe-creme');
    expect(slugify('snake_case and -- dashes')).toBe('snake_case-and-dashes');
    expect(slugify('한국어 문서')).toBe('한국어-문서');
    expect(slugify('日本語')).toBe('日本語');
    expect(slugify('???')).toBe('section');
  });
});

describe('wikilinks and paths', () => {
  it('parses every wikilink form', () => {
    expect(parseWikilink('guides/setup')).toEqual({ target: 'guides/setup', anchor: null, label: null });
    expect(parseWikilink('guides/setup.md|Setup')).toEqual({
      target: 'guides/setup.md',
      anchor: null,
      label: 'Setup',
    });
    expect(parseWikilink('guides/setup#Install|Go')).toEqual({
      target: 'guides/setup',
      anchor: 'Install',
      label: 'Go',
    });
    expect(parseWikilink('#local')).toEqual({ target: '', anchor: 'local', label: null });
    expect(parseWikilink('  ')).toBeNull();
    expect(wikilinkTargetPath('/guides/./setup')).toBe('guides/setup.md');
    expect(wikilinkTargetPath('../escape')).toBeNull();
  });

  it('resolves relative hrefs against the page', () => {
    expect(resolveRelativeHref('guides/intro.md', 'setup.md#x')).toBe('guides/setup.md');
    expect(resolveRelativeHref('guides/intro.md', '../api/index.md?x=1')).toBe('api/index.md');
    expect(resolveRelativeHref('guides/intro.md', '/root.md')).toBe('root.md');
    expect(resolveRelativeHref('guides/intro.md', 'my%20page.md')).toBe('guides/my page.md');
    expect(resolveRelativeHref('intro.md', '../../etc/passwd')).toBeNull();
    expect(isPageHref('a/b.md#c')).toBe(true);
    expect(isPageHref('https://x.dev/a.md')).toBe(false);
    expect(resolvePageTarget('guides.md', new Set(['guides/index.md']))).toBe('guides/index.md');
  });

  it('maps pages to site routes and export-relative hrefs', () => {
    expect(pageRoute('index.md')).toBe('');
    expect(pageRoute('guides/index.md')).toBe('guides/');
    expect(pageRoute('guides/setup.md')).toBe('guides/setup');
    expect(relativeHref('guides/a.html', 'api/b.html')).toBe('../api/b.html');
    expect(relativeHref('guides/a.html', 'guides/c.html')).toBe('c.html');
    expect(relativeHref('index.html', 'guides/c.html')).toBe('guides/c.html');
    expect(relativeHref('a/b/c.html', 'theme.css')).toBe('../../theme.css');
  });

  it('extracts links outside code with their lines', () => {
    const links = extractLinks(
      '[[a]]\n`[[b]]`\n```\n[[c]]\n```\n[d](d.md "t") ![e](e.png)\n[ref]: ref.md',
      'x/y.md',
    );
    expect(links.map((l) => [l.kind, l.targetPath, l.line])).toEqual([
      ['wikilink', 'a.md', 1],
      ['link', 'x/d.md', 6],
      ['image', 'x/e.png', 6],
      ['link', 'x/ref.md', 7],
    ]);
  });

  it('derives the same heading ids as the renderer', () => {
    const body =
      '# Title\n\n## Install `npm`\n\n## Install npm\n\nSetext\n------\n\n```\n# not a heading\n```\n\n## [Link](x.md) and **bold**';
    const rendered = createRenderer().render(body, { pagePath: 'a.md', resolveWikilink: () => null });
    expect(extractHeadingIds(body)).toEqual(['title', ...rendered.toc.map((t) => t.id)]);
  });
});

describe('extension-less links (Docusaurus)', () => {
  const pages = new Set([
    'docs/intro.md',
    'docs/install.mdx',
    'docs/clash.md',
    'docs/clash.mdx',
    'docs/guides/index.mdx',
  ]);
  it.each([
    ['./install', 'docs/install.mdx'],
    ['install#npm', 'docs/install.mdx'],
    ['clash', 'docs/clash.md'],
    ['./guides/', 'docs/guides/index.mdx'],
    ['/docs/intro', 'docs/intro.md'],
    ['./missing', null],
    ['./install.mdx', null],
    ['logo.png', null],
    ['https://example.com/install', null],
    ['#install', null],
  ])('%j from docs/intro.md -> %j', (href, expected) => {
    expect(extensionlessPageTarget('docs/intro.md', href, pages)).toBe(expected);
  });
});

describe('wikilinks to .mdx pages', () => {
  const resolver = new WikilinkResolver([
    { path: 'docs/install.mdx', title: 'Install' },
    { path: 'docs/clash.md' },
    { path: 'docs/clash.mdx' },
  ]);
  it.each([
    ['docs/install', 'docs/install.mdx'],
    ['install', 'docs/install.mdx'],
    ['docs/install.mdx', 'docs/install.mdx'],
    ['docs/clash', 'docs/clash.md'],
  ])('[[%s]] -> %s', (target, expected) => {
    expect(resolver.resolve(wikilinkTargetPath(target)!)).toEqual({ path: expected });
  });
});

describe('escaping', () => {
  it('escapes HTML and blocks script URLs', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(escapeHtml(undefined)).toBe('');
    expect(safeHref(' java\tscript:alert(1)')).toBe('#');
    expect(safeHref('DATA:text/html,x')).toBe('#');
    expect(safeHref('/p/docs/a?b=1&c=2')).toBe('/p/docs/a?b=1&amp;c=2');
    expect(escapeSnippet('a <mark>b</mark> &amp; <b>c</b> & d')).toBe(
      'a <mark>b</mark> &amp; &lt;b&gt;c&lt;/b&gt; &amp; d',
    );
  });
});
