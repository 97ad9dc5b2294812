import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  canonicalFrontmatter,
  contentHash,
  frontmatterHash,
  hashOf,
  parsePageFile,
  readPageMeta,
  serializePageFile,
  stableJson,
} from './frontmatter.js';

describe('parsePageFile', () => {
  it('splits frontmatter and body, dropping one separator blank line', () => {
    const parsed = parsePageFile('---\nid: 01ABC\ntitle: Setup\ntags: [a, b]\n---\n\n# Setup\n\nText.\n');
    expect(parsed).toEqual({
      frontmatter: { id: '01ABC', title: 'Setup', tags: ['a', 'b'] },
      body: '# Setup\n\nText.\n',
    });
  });

  it('keeps further blank lines of the body', () => {
    expect(parsePageFile('---\ntitle: x\n---\n\n\nBody').body).toBe('\nBody');
    expect(parsePageFile('---\ntitle: x\n---\nBody').body).toBe('Body');
  });

  it('treats a file without frontmatter as all body', () => {
    expect(parsePageFile('# Just text\n')).toEqual({ frontmatter: {}, body: '# Just text\n' });
    expect(parsePageFile('')).toEqual({ frontmatter: {}, body: '' });
  });

  it('treats an unclosed fence as body (a leading thematic break)', () => {
    const text = '---\nNot frontmatter\n';
    expect(parsePageFile(text)).toEqual({ frontmatter: {}, body: text });
  });

  it('handles CRLF line endings and a BOM', () => {
    const parsed = parsePageFile('\uFEFF---\r\ntitle: Win\r\n---\r\n\r\nLine one\r\n');
    expect(parsed.frontmatter).toEqual({ title: 'Win' });
    expect(parsed.body).toBe('Line one\r\n');
  });

  it('does not close on a line that merely starts with ---', () => {
    const parsed = parsePageFile('---\ntitle: a\n----\nmore: b\n---\nbody');
    expect(parsed.error).toBeDefined();
    expect(parsed.body).toBe('body');
  });

  it('returns the body and an error for invalid YAML instead of throwing', () => {
    const parsed = parsePageFile('---\ntitle: [unclosed\ntags: x\n---\nThe body\n');
    expect(parsed.frontmatter).toEqual({});
    expect(parsed.body).toBe('The body\n');
    expect(parsed.error).toMatch(/^Invalid frontmatter: /);
    expect(parsed.error).not.toContain('\n');
  });

  it('reports duplicate keys and non-mapping frontmatter as errors', () => {
    expect(parsePageFile('---\na: 1\na: 2\n---\n').error).toMatch(/unique/i);
    expect(parsePageFile('---\n- a\n- b\n---\nx').error).toMatch(/mapping/);
    expect(parsePageFile('---\njust a string\n---\nx').error).toMatch(/mapping/);
  });

  it('accepts empty frontmatter', () => {
    expect(parsePageFile('---\n---\nbody')).toEqual({ frontmatter: {}, body: 'body' });
    expect(parsePageFile('---\n# only a comment\n---\nbody')).toEqual({ frontmatter: {}, body: 'body' });
  });

  it('keeps YAML 1.2 scalars: dates and yes/no stay strings', () => {
    const { frontmatter } = parsePageFile('---\ndate: 2024-01-15\nflag: yes\ncount: 3\n---\n');
    expect(frontmatter).toEqual({ date: '2024-01-15', flag: 'yes', count: 3 });
  });

  it('drops a __proto__ key so it cannot reach a prototype', () => {
    const { frontmatter } = parsePageFile('---\n__proto__:\n  polluted: true\ntitle: t\n---\n');
    expect(frontmatter).toEqual({ title: 't' });
    expect(Object.getPrototypeOf(frontmatter)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('serializePageFile', () => {
  it('writes canonical key order and a blank line before the body', () => {
    const text = serializePageFile(
      {
        zeta: 1,
        order: 2,
        tags: ['a'],
        alpha: 'x',
        status: 'published',
        title: 'T',
        id: '01X',
        description: 'D',
      },
      '# Body\n',
    );
    expect(text).toBe(
      '---\nid: 01X\ntitle: T\ndescription: D\ntags:\n  - a\nstatus: published\norder: 2\nalpha: x\nzeta: 1\n---\n\n# Body\n',
    );
  });

  it('omits undefined values and an empty description', () => {
    const text = serializePageFile({ id: 'a', title: 'T', description: '  ', extra: undefined }, 'b');
    expect(text).toBe('---\nid: a\ntitle: T\n---\n\nb');
  });

  it('writes fences even with no frontmatter so a leading --- survives', () => {
    const body = '---\nnot: frontmatter\n---\nrest';
    const text = serializePageFile({}, body);
    expect(text).toBe(`---\n---\n\n${body}`);
    expect(parsePageFile(text)).toEqual({ frontmatter: {}, body });
  });

  it('quotes strings that YAML would read as other types, and does not fold long lines', () => {
    const fm = { title: 'true', id: '0123', description: 'word '.repeat(40).trim(), note: 'a: b' };
    const text = serializePageFile(fm, '');
    expect(text.split('\n').filter((l) => l.startsWith('description:'))).toHaveLength(1);
    expect(parsePageFile(text).frontmatter).toEqual(fm);
  });

  it.each([
    ['plain', 'Hello\n'],
    ['empty', ''],
    ['only newline', '\n'],
    ['leading blank lines', '\n\nText'],
    ['CRLF body', 'a\r\nb\r\n'],
    ['body with a fence line', 'x\n---\ny'],
  ])('round-trips a %s body exactly', (_label, body) => {
    const fm = { id: '01H', title: 'Round trip', tags: ['x', 'y'], nested: { b: 1, a: [1, 2] } };
    const parsed = parsePageFile(serializePageFile(fm, body));
    expect(parsed.body).toBe(body);
    expect(parsed.frontmatter).toEqual(fm);
    expect(parsed.error).toBeUndefined();
  });
});

describe('canonicalFrontmatter', () => {
  it('orders known keys first and the rest alphabetically', () => {
    const fm = canonicalFrontmatter({ b: 1, title: 't', a: 2, id: 'i', order: 0, Z: 3 });
    expect(Object.keys(fm)).toEqual(['id', 'title', 'order', 'Z', 'a', 'b']);
  });

  it('keeps falsy but meaningful values', () => {
    expect(canonicalFrontmatter({ order: 0, draft: false, note: null, tags: [] })).toEqual({
      tags: [],
      order: 0,
      draft: false,
      note: null,
    });
  });
});

describe('hashes', () => {
  it('hashOf is sha256: plus hex', () => {
    const expected = createHash('sha256').update('hello').digest('hex');
    expect(hashOf('hello')).toBe(`sha256:${expected}`);
    expect(hashOf(Buffer.from('hello'))).toBe(`sha256:${expected}`);
    expect(hashOf('')).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('reads a large block again from its cache, each reader getting a copy of its own', () => {
    const keys = Array.from({ length: 300 }, (_, i) => `key${i}: [${i}, nested]`).join('\n');
    const first = parsePageFile(`---\n${keys}\n---\n\nOne\n`);
    (first.frontmatter.key0 as unknown[]).push('changed by a reader');
    first.frontmatter.extra = true;
    const second = parsePageFile(`---\n${keys}\n---\n\nTwo\n`);
    expect(second.body).toBe('Two\n');
    expect(second.frontmatter.key0).toEqual([0, 'nested']);
    expect(second.frontmatter.extra).toBeUndefined();
    expect(Object.keys(second.frontmatter)).toHaveLength(300);
    const broken = `---\n${keys}\nkey0: again\n---\n`;
    expect(parsePageFile(broken).error).toContain('Map keys must be unique');
    expect(parsePageFile(broken).error).toContain('Map keys must be unique');
  });

  it('hashOf a long text is the hash of its UTF-8 bytes, a pair cut at a slice edge included', () => {
    const text = `${'x'.repeat(256 * 1024 - 1)}\u{1F600}caf\u00e9 ${'\u2014 long text '.repeat(40_000)}`;
    const expected = createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
    expect(hashOf(text)).toBe(`sha256:${expected}`);
  });

  it('contentHash hashes the body exactly, whitespace included', () => {
    expect(contentHash('a\n')).toBe(hashOf('a\n'));
    expect(contentHash('a\n')).not.toBe(contentHash('a'));
  });

  it('frontmatterHash ignores key order at every depth and dropped values', () => {
    const a = frontmatterHash({ title: 'T', id: '1', meta: { x: 1, y: [1, { q: 1, p: 2 }] } });
    const b = frontmatterHash({
      meta: { y: [1, { p: 2, q: 1 }], x: 1 },
      id: '1',
      title: 'T',
      gone: undefined,
    });
    expect(a).toBe(b);
    expect(frontmatterHash({ title: 'T', description: '' })).toBe(frontmatterHash({ title: 'T' }));
  });

  it('frontmatterHash changes with any value, and array order matters', () => {
    const base = frontmatterHash({ title: 'T', tags: ['a', 'b'] });
    expect(frontmatterHash({ title: 'T2', tags: ['a', 'b'] })).not.toBe(base);
    expect(frontmatterHash({ title: 'T', tags: ['b', 'a'] })).not.toBe(base);
    expect(base).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('stableJson sorts nested keys', () => {
    expect(stableJson({ b: 1, a: { d: 1, c: 2 } })).toBe('{"a":{"c":2,"d":1},"b":1}');
  });
});

describe('readPageMeta', () => {
  it('reads a well-formed frontmatter', () => {
    expect(
      readPageMeta({
        id: '01H',
        title: 'T',
        description: 'D',
        tags: ['a', 'b'],
        status: 'published',
        order: 3,
      }),
    ).toEqual({ id: '01H', title: 'T', description: 'D', tags: ['a', 'b'], status: 'published', order: 3 });
  });

  it('defaults: no tags, draft, nothing else', () => {
    expect(readPageMeta({})).toEqual({ tags: [], status: 'draft' });
  });

  it('coerces tolerantly', () => {
    expect(
      readPageMeta({
        title: 2024,
        tags: 'a, b,, a , c',
        status: ' Published ',
        order: '5',
        description: '  ',
      }),
    ).toEqual({ title: '2024', tags: ['a', 'b', 'c'], status: 'published', order: 5 });
  });

  it('ignores values of the wrong shape', () => {
    expect(
      readPageMeta({
        id: { x: 1 },
        title: ['T'],
        tags: [1, null, 'x', { y: 1 }],
        status: 'archived',
        order: 'soon',
      }),
    ).toEqual({ tags: ['1', 'x'], status: 'draft' });
    expect(readPageMeta({ order: Infinity, tags: 7 }).order).toBeUndefined();
  });

  it('accepts the legacy published: true when status is absent', () => {
    expect(readPageMeta({ published: true }).status).toBe('published');
    expect(readPageMeta({ published: true, status: 'draft' }).status).toBe('draft');
  });
});
