import { describe, expect, it } from 'vitest';
import { excerptOf, MAX_EXCERPT_CHARS, significantTerms } from './context.js';

describe('significantTerms', () => {
  it('drops stopwords and short words and puts the most specific words first', () => {
    expect(significantTerms('How do I configure the webhook secret for my repo?')).toEqual([
      'configure',
      'webhook',
      'secret',
      'repo',
    ]);
  });

  it('leaves nothing of a question made only of common words', () => {
    expect(significantTerms('What is it and how does it work?')).toEqual([]);
  });
});

describe('excerptOf', () => {
  const paragraph = (word: string, n: number) => `${Array.from({ length: n }, () => word).join(' ')}.`;

  it('keeps a short page whole', () => {
    expect(excerptOf('  # Title\n\nShort body.\n', ['body'])).toBe('# Title\n\nShort body.');
  });

  it('never exceeds the cap and marks what was cut', () => {
    const body = Array.from({ length: 200 }, (_, i) => `Line ${i} ${paragraph('filler', 10)}`).join('\n');
    const excerpt = excerptOf(body, [], 1000);
    expect(excerpt.length).toBeLessThanOrEqual(1000);
    expect(excerpt.startsWith('Line 0 ')).toBe(true);
    expect(excerpt.endsWith('\n…')).toBe(true);
    expect(excerptOf(body, []).length).toBeLessThanOrEqual(MAX_EXCERPT_CHARS);
  });

  it('starts at the paragraph of the first match when it lies beyond the cut', () => {
    const body = [paragraph('intro', 400), 'The frobnicator threshold is 42.', paragraph('outro', 400)].join(
      '\n\n',
    );
    const excerpt = excerptOf(body, ['frobnicator'], 1000);
    expect(excerpt.length).toBeLessThanOrEqual(1000);
    expect(excerpt.startsWith('…\nThe frobnicator threshold is 42.')).toBe(true);
  });
});
