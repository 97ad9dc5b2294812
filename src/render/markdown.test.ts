import { describe, expect, it } from 'vitest';
import { createRenderer, renderCommentBody, type RenderContext } from './markdown.js';

const renderer = createRenderer();
const pages = new Map([
  ['guides/setup.md', '/p/docs/guides/setup'],
  ['index.md', '/p/docs/'],
]);
const ctx: RenderContext = {
  pagePath: 'guides/intro.md',
  resolveWikilink: (path) => pages.get(path) ?? null,
};
const render = (body: string, extra: Partial<RenderContext> = {}) =>
  renderer.render(body, { ...ctx, ...extra });

describe('markdown features', () => {
  it('renders GFM tables with alignment classes instead of inline styles', () => {
    const { html } = render('| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |');
    expect(html).toContain('<div class="table-wrap">');
    expect(html).toContain('<th class="align-left">a</th>');
    expect(html).toContain('<td class="align-center">2</td>');
    expect(html).toContain('<td class="align-right">3</td>');
    expect(html).not.toContain('style=');
  });

  it('renders strikethrough and linkifies bare URLs, without typographer replacements', () => {
    const { html } = render('~~old~~ see https://example.com/docs -- "quoted"');
    expect(html).toContain('<s>old</s>');
    expect(html).toContain('<a href="https://example.com/docs">https://example.com/docs</a>');
    expect(html).toContain('-- "quoted"');
    expect(render('Edit README.md and run setup.sh').html).not.toContain('<a');
  });

  it('turns task list items into disabled checkboxes', () => {
    const { html } = render('- [ ] todo\n- [x] done\n- [X] also done\n- not a task\n- [ ]');
    expect(html).toContain('<ul class="contains-task-list">');
    expect(html.match(/<li class="task-list-item">/g)).toHaveLength(3);
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*disabled[^>]*\/> todo/);
    expect(html.match(/ checked/g)).toHaveLength(2);
    expect(html).toContain('<li>not a task</li>');
  });

  it('renders footnotes with back-links', () => {
    const { html } = render('Claim.[^1]\n\n[^1]: Source.');
    expect(html).toContain('<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup>');
    expect(html).toContain('<section class="footnotes">');
    expect(html).toMatch(
      /<li id="fn1" class="footnote-item"><p>Source\. <a href="#fnref1" class="footnote-backref" aria-label="Back to text">/,
    );
  });

  it('gives headings unique, stable ids and builds the toc and title', () => {
    const body = '# Guide\n\n## Install\n\n### Install\n\n## Install\n\n## Café & Crème `code`\n';
    const first = render(body);
    expect(first.title).toBe('Guide');
    expect(first.toc).toEqual([
      { level: 2, id: 'install', text: 'Install' },
      { level: 3, id: 'install-1', text: 'Install' },
      { level: 2, id: 'install-2', text: 'Install' },
      { level: 2, id: 'cafe-creme-code', text: 'Café & Crème code' },
    ]);
    expect(first.html).toContain('<h2 id="install">Install</h2>');
    expect(first.html).toContain(
      '<a class="header-anchor" href="#install-2" aria-label="Permalink: Install">#</a>',
    );
    expect(render(body).toc).toEqual(first.toc);
  });

  it('highlights registered languages and escapes unknown ones', () => {
    const ts = render('```ts\nconst x: number = 1 < 2;\n```').html;
    expect(ts).toContain('<pre class="hljs" tabindex="0"><code class="hljs language-ts">');
    expect(ts).toContain('<span class="hljs-keyword">const</span>');
    expect(ts).toContain('&lt;');
    const samples: Record<string, string> = {
      bash: 'echo "$HOME"',
      sh: 'if true; then ls; fi',
      json: '{"a": 1}',
      yaml: 'a: true',
      python: 'def f(): return None',
      go: 'func main() {}',
      rust: 'fn main() { let x = 1; }',
      java: 'public class A {}',
      sql: 'SELECT * FROM t',
      html: '<p class="x">hi</p>',
      css: 'a { color: red; }',
      diff: '+ added',
      dockerfile: 'FROM node:20',
      markdown: '# Title',
      javascript: 'let a = 1',
      typescript: 'type A = string',
    };
    for (const [lang, code] of Object.entries(samples)) {
      expect(render(`\`\`\`${lang}\n${code}\n\`\`\``).html, lang).toContain('class="hljs-');
    }
    const unknown = render('```cobol\n<b>DISPLAY</b>\n```').html;
    expect(unknown).toContain('language-cobol');
    expect(unknown).toContain('&lt;b&gt;DISPLAY&lt;/b&gt;');
    expect(render('    indented <code>').html).toContain(
      '<pre class="hljs" tabindex="0"><code class="hljs">',
    );
  });

  it('renders both callout syntaxes to the same markup', () => {
    const gfm = render('> [!WARNING]\n> Mind the **gap**.').html;
    const container = render(':::warning\nMind the **gap**.\n:::').html;
    const expected =
      '<div class="callout callout-warning" role="note"><p class="callout-title">Warning</p>\n<p>Mind the <strong>gap</strong>.</p>\n</div>';
    expect(gfm.trim()).toBe(expected);
    expect(container.trim()).toBe(expected);
    for (const kind of ['NOTE', 'TIP', 'IMPORTANT', 'CAUTION'])
      expect(render(`> [!${kind}]\n> x`).html).toContain(`callout-${kind.toLowerCase()}`);
    for (const kind of ['note', 'tip', 'danger', 'info'])
      expect(render(`:::${kind}\nx\n:::`).html).toContain(
        `<div class="callout callout-${kind}" role="note">`,
      );
    expect(render(':::tip Pro <tip>\nx\n:::').html).toContain('<p class="callout-title">Pro &lt;tip&gt;</p>');
    expect(render('> [!NOTE]\n\n> plain quote').html).not.toContain('plain quote</p>\n</div>');
    expect(render('> just a quote').html).toContain('<blockquote>');
  });

  it('resolves wikilinks, marks missing ones and lists linked pages', () => {
    const out = render(
      '[[guides/setup]] [[guides/setup.md|Setup guide]] [[guides/setup#Install Steps]] [[nowhere]] [[#Local]] `[[in code]]`',
    );
    expect(out.html).toContain('<a class="wikilink" href="/p/docs/guides/setup">guides/setup</a>');
    expect(out.html).toContain('<a class="wikilink" href="/p/docs/guides/setup">Setup guide</a>');
    expect(out.html).toContain(
      '<a class="wikilink" href="/p/docs/guides/setup#install-steps">guides/setup#Install Steps</a>',
    );
    expect(out.html).toContain(
      '<span class="wikilink-missing" title="Missing page: nowhere.md">nowhere</span>',
    );
    expect(out.html).toContain('<a class="wikilink" href="#local">Local</a>');
    expect(out.html).toContain('<code>[[in code]]</code>');
    expect(out.links).toEqual(['guides/setup.md', 'nowhere.md']);
  });

  it('passes relative page links, uploads and image sources through rewriteHref', () => {
    const rewriteHref = (href: string) => `/p/docs/~${href}`;
    const out = render(
      '[a](setup.md#x) [b](../index.md) [c](uploads/f.pdf) [d](https://x.dev/a.md) [e](#top) ![i](img/a.png) <img src="raw.png" alt="r">',
      { rewriteHref },
    );
    expect(out.html).toContain('href="/p/docs/~setup.md#x"');
    expect(out.html).toContain('href="/p/docs/~../index.md"');
    expect(out.html).toContain('href="/p/docs/~uploads/f.pdf"');
    expect(out.html).toContain('href="https://x.dev/a.md"');
    expect(out.html).toContain('href="#top"');
    expect(out.html).toContain('src="/p/docs/~img/a.png"');
    expect(out.html).toContain('src="/p/docs/~raw.png"');
    expect(out.links).toEqual(['guides/setup.md', 'index.md']);
    expect(render('[a](setup.md)').html).toContain('href="setup.md"');
  });
});

describe('sanitising', () => {
  const attacks = [
    '<script>alert(1)</script>',
    '<img src=x onerror="alert(1)">',
    '[click](javascript:alert(1))',
    '[click](JaVaScRiPt:alert(1))',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="&#106;avascript:alert(1)">x</a>',
    '<a href="  javascript:alert(1)">x</a>',
    '<iframe src="https://evil.example"></iframe>',
    '<svg onload="alert(1)"><circle /></svg>',
    '<div style="background:url(javascript:alert(1))" onclick="alert(1)">x</div>',
    '<form action="https://evil.example"><input type="text" name="pw"></form>',
    '<object data="evil.swf"></object><embed src="evil.swf">',
    '[[a" onmouseover="alert(1)]]',
    '## <img src=x onerror=alert(1)> heading',
    '```"><script>alert(1)</script>\ncode\n```',
    '<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>',
    '<details open ontoggle="alert(1)"><summary>s</summary></details>',
    '<style>body{display:none}</style><link rel="stylesheet" href="evil.css"><meta http-equiv="refresh">',
  ];
  // sanitize-html always writes double-quoted attributes with `"` escaped, so this
  // reads its output exactly.
  const attributes = (html: string) =>
    [...html.matchAll(/<[a-z][a-z0-9]*((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/gi)].flatMap((tag) =>
      [...(tag[1] ?? '').matchAll(/([^\s=]+)(?:="([^"]*)")?/g)].map((a) => ({
        name: a[1] ?? '',
        value: a[2] ?? '',
      })),
    );
  it.each(attacks)('neutralises %s', (attack) => {
    const { html } = render(attack);
    expect(html).not.toMatch(/<(?:script|iframe|svg|object|embed|form|style|link|meta)\b/i);
    for (const { name, value } of attributes(html)) {
      expect(name).not.toMatch(/^on|^style$/i);
      if (name === 'href' || name === 'src') expect(value).not.toMatch(/^\s*(?:javascript|data|vbscript):/i);
    }
  });

  it('keeps the markup docs need', () => {
    const { html } = render(
      '<details><summary>More</summary>\n\n**hidden**\n\n</details>\n\n<kbd>Ctrl</kbd> <abbr title="HyperText">HTML</abbr>',
    );
    expect(html).toContain('<details><summary>More</summary>');
    expect(html).toContain('<kbd>Ctrl</kbd>');
    expect(html).toContain('<abbr title="HyperText">HTML</abbr>');
  });

  it('drops classes that are not Folio or highlight.js classes', () => {
    expect(render('<div class="site-header callout">x</div>').html).toContain('<div class="callout">');
  });
});

describe('renderCommentBody', () => {
  it('escapes raw HTML, drops images and marks links as user content', () => {
    const html = renderCommentBody(
      'Hi <b>bold</b> <script>x</script> ![pic](https://x.dev/a.png) [site](https://x.dev)',
    );
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('<a href="https://x.dev" rel="nofollow noopener ugc">site</a>');
  });

  it('keeps comment headings below the page outline and blocks javascript: links', () => {
    expect(renderCommentBody('# Title')).toBe('<h4>Title</h4>\n');
    expect(renderCommentBody('[x](javascript:alert(1))')).not.toContain('href');
  });
});

describe('scale sanity', () => {
  it('renders 1,000 varied pages', () => {
    let total = 0;
    for (let i = 0; i < 1000; i++) {
      const body = `# Page ${i}\n\n## Section ${i % 7}\n\nText [[guides/setup]] [next](p${i + 1}.md) ${'word '.repeat(i % 50)}\n\n\`\`\`js\nconst n = ${i};\n\`\`\`\n\n- [x] item ${i}\n\n> [!TIP]\n> Tip ${i}\n`;
      const out = render(body, { pagePath: `p${i}.md` });
      expect(out.title).toBe(`Page ${i}`);
      total += out.html.length;
    }
    expect(total).toBeGreaterThan(1000 * 300);
  });
});
