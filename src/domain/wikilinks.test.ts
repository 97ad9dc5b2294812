import { describe, expect, it } from 'vitest';
import { extractLinks, relinkMovedPage, rewriteLinks } from './wikilinks.js';

const targets = (body: string, from = 'index.md') => extractLinks(body, from).map((l) => l.target);

describe('extractLinks: wikilinks', () => {
  it('reads every wikilink form, relative to the workspace root', () => {
    const body =
      'See [[guides/setup]], [[guides/setup.md]], [[guides/setup|Setup]] and [[guides/setup#install]].';
    const links = extractLinks(body, 'deep/folder/page.md');
    expect(links).toEqual([
      { kind: 'wiki', target: 'guides/setup.md', raw: '[[guides/setup]]', index: 4 },
      { kind: 'wiki', target: 'guides/setup.md', raw: '[[guides/setup.md]]', index: 22 },
      { kind: 'wiki', target: 'guides/setup.md', raw: '[[guides/setup|Setup]]', index: 43 },
      {
        kind: 'wiki',
        target: 'guides/setup.md',
        anchor: 'install',
        raw: '[[guides/setup#install]]',
        index: 70,
      },
    ]);
  });

  it('reads heading and label together, spaces and a leading slash', () => {
    const [link] = extractLinks('[[ /Getting Started#First steps|Start here ]]', 'a.md');
    expect(link).toMatchObject({ target: 'Getting Started.md', anchor: 'First steps' });
  });

  it('skips attachment embeds, same-page anchors, escaped and invalid targets', () => {
    expect(targets('![[diagram.png]] [[#local]] \\[[not-a-link]] [[../outside]] [[.hidden]]')).toEqual([]);
    expect(targets('![[embedded-page]] [[notes/v1.2]]')).toEqual(['embedded-page.md', 'notes/v1.2.md']);
  });

  it('understands the escaped pipe used inside tables', () => {
    expect(extractLinks('| [[guides/setup\\|Setup]] |', 'a.md')[0]?.target).toBe('guides/setup.md');
  });
});

describe('extractLinks: markdown links', () => {
  it('resolves relative .md links from the linking page', () => {
    const body = '[Setup](../guide/setup.md) and [X](setup.md#x) and [Y](./sub/y.md "Title")';
    expect(extractLinks(body, 'docs/intro.md')).toEqual([
      { kind: 'markdown', target: 'guide/setup.md', raw: '[Setup](../guide/setup.md)', index: 0 },
      { kind: 'markdown', target: 'docs/setup.md', anchor: 'x', raw: '[X](setup.md#x)', index: 31 },
      { kind: 'markdown', target: 'docs/sub/y.md', raw: '[Y](./sub/y.md "Title")', index: 51 },
    ]);
  });

  it('handles root-relative, angle-bracketed and percent-encoded destinations', () => {
    const body = '[a](/guides/a.md) [b](<my page.md>) [c](my%20page.md) ![img](pic.md)';
    expect(targets(body, 'x/y.md')).toEqual(['guides/a.md', 'x/my page.md', 'x/my page.md', 'x/pic.md']);
  });

  it('reads reference definitions but not footnotes', () => {
    const body = 'See [setup][s].\n\n[s]: ../guide/setup.md#top "Setup"\n[^1]: notes.md\n';
    expect(extractLinks(body, 'docs/a.md')).toEqual([
      {
        kind: 'markdown',
        target: 'guide/setup.md',
        anchor: 'top',
        raw: '[s]: ../guide/setup.md#top',
        index: 17,
      },
    ]);
  });

  it('ignores external URLs, non-page files, anchors and links leaving the workspace', () => {
    const body = [
      '[web](https://example.com/a.md)',
      '[proto](//cdn.example.com/a.md)',
      '[mail](mailto:x@y.md)',
      '[img](../uploads/pic.png)',
      '[anchor](#section)',
      '[up](../../../etc/x.md)',
      '[folder](../guide/)',
    ].join('\n');
    expect(targets(body, 'docs/a.md')).toEqual([]);
  });

  it('reports raw text from the body even when the link text holds code', () => {
    const [link] = extractLinks('[the `setup` page](setup.md)', 'a.md');
    expect(link).toMatchObject({ target: 'setup.md', raw: '[the `setup` page](setup.md)' });
  });

  it('spans link text over a line break', () => {
    expect(targets('see the [setup\nguide](setup.md)', 'a.md')).toEqual(['setup.md']);
  });
});

describe('extractLinks: code is ignored', () => {
  it('skips fenced blocks with backticks and tildes, including unclosed ones', () => {
    const body = [
      '[[real-one]]',
      '```md',
      '[[in-fence]] [x](in-fence.md)',
      '```',
      '~~~~',
      '[[in-tilde]]',
      '```',
      '[[still-in-tilde]]',
      '~~~~',
      '[[real-two]]',
      '   ```',
      '[[unclosed]]',
    ].join('\n');
    expect(targets(body)).toEqual(['real-one.md', 'real-two.md']);
  });

  it('skips inline code of any backtick length but not text after unmatched backticks', () => {
    const body = 'a `[[code]]` b ``x ` [[code2]]`` c [[real]] d ` [[after-lone-tick]]';
    expect(targets(body)).toEqual(['real.md', 'after-lone-tick.md']);
  });

  it('skips fences inside blockquotes and list items', () => {
    const body = '> ```\n> [[quoted-code]]\n> ```\n- item\n\n    ```\n    [[list-code]]\n    ```\n[[ok]]';
    expect(targets(body)).toEqual(['ok.md']);
  });
});

describe('rewriteLinks', () => {
  it('rewrites wikilinks keeping form, label and anchor', () => {
    const body =
      '[[guides/setup]] [[guides/setup.md]] [[guides/setup|Set up]] [[guides/setup#a|b]] [[/guides/setup]]';
    const result = rewriteLinks(body, 'index.md', 'guides/setup.md', 'start/install.md');
    expect(result).toEqual({
      body: '[[start/install]] [[start/install.md]] [[start/install|Set up]] [[start/install#a|b]] [[/start/install]]',
      changed: true,
    });
  });

  it('recomputes relative markdown links from the linking page, keeping title, anchor and ./', () => {
    const body =
      '[a](../guides/setup.md#x "T") [b](./setup.md) [c](/guides/setup.md) [d](./../guides/setup.md)';
    const r = rewriteLinks(body, 'other/p.md', 'guides/setup.md', 'a/b/new.md');
    // [b] is other/setup.md, a different page
    expect(r.body).toBe('[a](../a/b/new.md#x "T") [b](./setup.md) [c](/a/b/new.md) [d](../a/b/new.md)');
  });

  it('keeps ./ and same-folder links short', () => {
    const r = rewriteLinks(
      '[s](./setup.md) [t](setup.md)',
      'guides/intro.md',
      'guides/setup.md',
      'guides/install.md',
    );
    expect(r.body).toBe('[s](./install.md) [t](install.md)');
  });

  it('keeps angle brackets and percent-encoding when the new name has spaces', () => {
    const body = '[a](<old.md>) [b](old.md) [c](my%20old.md)';
    let r = rewriteLinks(body, 'p.md', 'old.md', 'new page.md');
    expect(r.body).toBe('[a](<new page.md>) [b](new%20page.md) [c](my%20old.md)');
    r = rewriteLinks(body, 'p.md', 'my old.md', 'my new (2).md');
    expect(r.body).toBe('[a](<old.md>) [b](old.md) [c](my%20new%20%282%29.md)');
  });

  it('rewrites reference definitions', () => {
    const r = rewriteLinks('[x][1]\n\n[1]: setup.md "S"\n', 'guides/a.md', 'guides/setup.md', 'setup.md');
    expect(r.body).toBe('[x][1]\n\n[1]: ../setup.md "S"\n');
  });

  it('leaves other links, code and externals alone and reports no change', () => {
    const body =
      '[[other]] `[[guides/setup]]`\n```\n[x](guides/setup.md)\n```\n[w](https://x.io/guides/setup.md)';
    expect(rewriteLinks(body, 'index.md', 'guides/setup.md', 'new.md')).toEqual({ body, changed: false });
  });

  it('rewrites several links and the result extracts to the new target', () => {
    const body = 'A [[old]] B [o](old.md) C [[old|again]]';
    const r = rewriteLinks(body, 'index.md', 'old.md', 'folder/new.md');
    expect(r.changed).toBe(true);
    expect(targets(r.body)).toEqual(['folder/new.md', 'folder/new.md', 'folder/new.md']);
  });
});

describe('relinkMovedPage', () => {
  it('keeps relative links of the moved page pointing at the same pages', () => {
    const body = '[up](../ref/api.md) [same](sibling.md#s) [root](/abs.md) [[guides/other]]';
    const r = relinkMovedPage(body, 'guides/page.md', 'archive/2024/page.md');
    expect(r.body).toBe(
      '[up](../../ref/api.md) [same](../../guides/sibling.md#s) [root](/abs.md) [[guides/other]]',
    );
    expect(targets(r.body, 'archive/2024/page.md')).toEqual(targets(body, 'guides/page.md'));
  });

  it('retargets links to itself', () => {
    const r = relinkMovedPage('[[guides/page#top]] [me](page.md)', 'guides/page.md', 'docs/renamed.md');
    expect(r.body).toBe('[[docs/renamed#top]] [me](renamed.md)');
  });

  it('does not touch links when only the name changes in the same folder', () => {
    const body = '[x](./a/../ref.md) [[other]]';
    expect(relinkMovedPage(body, 'guides/p.md', 'guides/q.md')).toEqual({ body, changed: false });
  });
});
