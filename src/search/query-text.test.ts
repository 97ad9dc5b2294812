import { describe, expect, it } from 'vitest';
import {
  ftsMatchExpression,
  indexText,
  MARK_END,
  MARK_START,
  markSnippet,
  MAX_TERMS,
  queryTerms,
  TAG_GUARD,
  tsQueryText,
} from './query-text.js';

describe('queryTerms', () => {
  it('keeps only word characters, lower-cased and de-duplicated', () => {
    expect(queryTerms('NEAR(foo "Bar" -baz:* foo')).toEqual(['near', 'foo', 'bar', 'baz']);
    expect(queryTerms('"*:-()^\'')).toEqual([]);
    expect(queryTerms('Café déjà-vu 42')).toEqual(['café', 'déjà', 'vu', '42']);
  });

  it('caps the number of terms', () => {
    expect(queryTerms(Array.from({ length: 40 }, (_, i) => `t${i}`).join(' '))).toHaveLength(MAX_TERMS);
  });
});

describe('query expressions', () => {
  it('quotes every term and makes the last a prefix', () => {
    expect(ftsMatchExpression(['near', 'foo'])).toBe('"near" "foo"*');
    expect(tsQueryText(['near', 'foo'])).toBe("'near' & 'foo':*");
  });

  it('matches a one-character last term exactly rather than as a prefix of everything', () => {
    expect(ftsMatchExpression(['foo', 'b'])).toBe('"foo" "b"');
    expect(tsQueryText(['b'])).toBe("'b'");
  });
});

describe('markSnippet', () => {
  it('escapes the text and turns markers into <mark>', () => {
    const raw = `a <script>&${MARK_START}x${MARK_END}\n"b"`;
    expect(markSnippet(raw)).toBe('a &lt;script&gt;&amp;<mark>x</mark> &quot;b&quot;');
  });

  it('restores tag guards as escaped < and closes an unmatched marker', () => {
    expect(markSnippet(`${TAG_GUARD}b> ${MARK_START}x`)).toBe('&lt;b&gt; <mark>x</mark>');
    expect(markSnippet(`${MARK_END}x`)).toBe('x');
  });
});

describe('indexText', () => {
  it('strips private markers and caps the length', () => {
    expect(indexText(`a${MARK_START}b${TAG_GUARD}c`)).toBe('abc');
    expect(indexText('abcdef', 3)).toBe('abc');
  });
});
