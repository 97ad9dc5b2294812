import { describe, expect, it } from 'vitest';
import { createRenderer } from '../markdown.js';
import { parseAttrList } from './attr-lists.js';

const render = (body: string) =>
  createRenderer().render(body, { pagePath: 'a.md', resolveWikilink: () => null }).html;

describe('attribute lists', () => {
  it('reads ids, classes and quoted or bare values, and refuses what is not a list', () => {
    expect(parseAttrList(' #id .a .b-c width="300" align=left k=\'v w\' ')).toEqual([
      ['id', 'id'],
      ['class', 'a'],
      ['class', 'b-c'],
      ['width', '300'],
      ['align', 'left'],
      ['k', 'v w'],
    ]);
    expect(parseAttrList(': .x')).toEqual([['class', 'x']]);
    expect(parseAttrList('name')).toBeNull();
    expect(parseAttrList('  ')).toBeNull();
    expect(parseAttrList('.a b')).toBeNull();
  });

  it('takes MkDocs Material\'s id="…" form and drops classes outside the md- family', () => {
    const html = render('## 9.7.6 { id="9.7.6" }\n\n[Go](x.md){ .lg .middle .md-button }\n');
    expect(html).toContain('<h2 id="9.7.6">9.7.6</h2>');
    expect(html).toContain('<a href="x.md" class="md-button">Go</a>');
  });

  it('leaves braces that are not lists, in headings and after links', () => {
    expect(render('## Sets {a, b}\n')).toContain('>Sets {a, b}</h2>');
    expect(render('[x](y.md){not a list}\n')).toContain('</a>{not a list}');
  });

  it('handles long runs of braces in a single pass', () => {
    const line = `[x](y.md)${'{.a '.repeat(50_000)}\n\n## T ${'{'.repeat(100_000)}}\n`;
    const html = render(line);
    expect(html).toContain('<a href="y.md">x</a>{.a');
    expect(html).toContain('<h2');
  });
});
