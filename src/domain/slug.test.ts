import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { slugify, validateSlug } from './slug.js';

describe('slugify', () => {
  it.each([
    ['Hello World', 'hello-world'],
    ['  Getting   Started!  ', 'getting-started'],
    ['Ünïcödé Çafé', 'unicode-cafe'],
    ['API v2.0 -- Reference', 'api-v2-0-reference'],
    ['already-a-slug', 'already-a-slug'],
    ['🚀 Launch', 'launch'],
    ['日本語', ''],
    ['', ''],
  ])('%j -> %j', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });

  it('truncates to 64 characters without a trailing dash', () => {
    const slug = slugify(`${'a'.repeat(63)} b`);
    expect(slug).toBe('a'.repeat(63));
    expect(slugify('x'.repeat(100))).toHaveLength(64);
  });

  it('always yields something validateSlug accepts when non-empty', () => {
    for (const text of ['A', 'a-b', '--x--', 'Q3 2025 / Roadmap', 'z'.repeat(80), 'é'.repeat(70)]) {
      const slug = slugify(text);
      expect(slug).not.toBe('');
      expect(validateSlug(slug)).toBe(slug);
    }
  });
});

describe('validateSlug', () => {
  it.each(['a', 'docs', 'my-docs-2', '0', 'a--b', 'x'.repeat(64)])('accepts %j', (slug) => {
    expect(validateSlug(slug)).toBe(slug);
  });

  it.each([
    ['empty', ''],
    ['uppercase', 'Docs'],
    ['leading dash', '-docs'],
    ['trailing dash', 'docs-'],
    ['space', 'my docs'],
    ['underscore', 'my_docs'],
    ['dot', 'v1.0'],
    ['accent', 'café'],
    ['too long', 'x'.repeat(65)],
    ['not a string', 42],
    ['undefined', undefined],
  ])('refuses %s', (_label, slug) => {
    let caught: unknown;
    try {
      validateSlug(slug);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'slug' } });
  });
});
