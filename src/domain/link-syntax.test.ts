import { describe, expect, it } from 'vitest';
import { extractLinks as renderLinks } from '../render/links.js';
import { maskCode, scanLinks } from './link-syntax.js';
import { extractLinks as pageLinks } from './wikilinks.js';

describe('scanLinks', () => {
  it('reports an image written in the text of a link as well as the link', () => {
    const body = '[![Cover](<c d.png> "T")](https://e.com/v) [![x](y.png)](z.md)';
    const tokens = scanLinks(body);
    expect(tokens.map((t) => t.kind !== 'wikilink' && [t.kind, t.href, t.text])).toEqual([
      ['link', 'https://e.com/v', '![Cover](<c d.png> "T")'],
      ['image', 'c d.png', 'Cover'],
      ['link', 'z.md', '![x](y.png)'],
      ['image', 'y.png', 'x'],
    ]);
    for (const t of tokens)
      if (t.kind !== 'wikilink') expect(body.slice(t.hrefStart, t.hrefEnd)).toBe(t.href);
  });

  it('reports every kind of link with its offsets, in order of position', () => {
    const body = '[[a/b#h|L]] ![[c.png]] [t](x.md "T") ![i](<p q.png>)\n[d]: d.md\n<img alt="A" src="u.png">';
    const tokens = scanLinks(body);
    expect(tokens.map((t) => t.kind)).toEqual([
      'wikilink',
      'wikilink',
      'link',
      'image',
      'definition',
      'html-image',
    ]);
    expect(tokens[0]).toMatchObject({
      target: 'a/b',
      anchor: 'h',
      label: 'L',
      embed: false,
      raw: '[[a/b#h|L]]',
    });
    expect(tokens[1]).toMatchObject({ target: 'c.png', embed: true });
    expect(tokens[3]).toMatchObject({ href: 'p q.png', angle: true, text: 'i' });
    expect(tokens[5]).toMatchObject({ href: 'u.png', text: 'A' });
    for (const t of tokens) {
      const [start, end] = t.kind === 'wikilink' ? [t.targetStart, t.targetEnd] : [t.hrefStart, t.hrefEnd];
      expect(body.slice(start, end)).toBe(t.kind === 'wikilink' ? t.target : t.href);
      expect(body.slice(t.index, t.index + t.raw.length)).toBe(t.raw);
    }
  });

  it('honours backslash escapes and the escaped pipe of tables', () => {
    expect(scanLinks('\\[[x]] \\[y](y.md)')).toEqual([]);
    const [wiki, link] = scanLinks('\\![[page]] \\![alt](pic.png)');
    expect(wiki).toMatchObject({ kind: 'wikilink', embed: false, raw: '[[page]]' });
    expect(link).toMatchObject({ kind: 'link', raw: '[alt](pic.png)' });
    expect(scanLinks('| [[guides/setup\\|Setup]] |')[0]).toMatchObject({
      target: 'guides/setup',
      label: 'Setup',
    });
  });

  it('lets wikilinks win over Markdown links around them', () => {
    expect(scanLinks('[[a]](b.md) [see [[c]]](d.md)').map((t) => t.raw)).toEqual(['[[a]]', '[[c]]']);
  });

  it('skips footnote definitions but reads a destination on the next line', () => {
    expect(scanLinks('[^1]: notes.md\n[r]:\n  r.md').map((t) => t.kind === 'wikilink' || t.href)).toEqual([
      'r.md',
    ]);
  });
});

describe('maskCode', () => {
  it('keeps offsets and line breaks', () => {
    const body = 'a `b` c\n```\nx\n```\n<!-- d -->\r\n';
    const masked = maskCode(body);
    expect(masked).toHaveLength(body.length);
    expect(masked).toBe('a     c\n   \n \n   \n          \r\n');
  });

  it('masks fences in blockquotes, list items and CRLF bodies', () => {
    expect(maskCode('> ```\n> [[q]]\n> ```')).not.toContain('[[q]]');
    expect(maskCode('- item\n\n    ```\n    [[l]]\n    ```')).not.toContain('[[l]]');
    expect(maskCode('```\r\n[[c]]\r\n```\r\n[[after]]')).toMatch(/^\s+\[\[after\]\]$/);
  });

  it('lets an unclosed fence run to the end unless it is indented as code', () => {
    expect(maskCode('```\n[[a]]').trim()).toBe('');
    expect(maskCode('    ```js\n\n[[a]]')).toContain('[[a]]');
  });

  it('masks inline code within a paragraph, unless inline is false', () => {
    expect(maskCode('`` `[[a]]` ``')).not.toContain('[[a]]');
    expect(maskCode('a ` b\n\n[[a]] `')).toContain('[[a]]');
    expect(maskCode('`[[a]]` <!-- [[b]] -->', false)).toBe(`\`[[a]]\`${' '.repeat(15)}`);
  });
});

describe('the two readers of the shared scanner', () => {
  it('agree on the pages a body links to', () => {
    const body = [
      '[[guides/setup#install|Setup]] [api](../api/index.md) `[[code]]`',
      '```',
      '[[fenced]]',
      '```',
      '<!-- [[commented]] -->',
      '\\[[escaped]] | [[table\\|T]] |',
      '[ref]: ref.md',
    ].join('\n');
    const rendered = renderLinks(body, 'docs/page.md').flatMap((l) => l.targetPath ?? []);
    const pages = pageLinks(body, 'docs/page.md').map((l) => l.target);
    expect(pages).toEqual(['guides/setup.md', 'api/index.md', 'table.md', 'docs/ref.md']);
    expect(rendered.sort()).toEqual([...pages].sort());
  });
});
