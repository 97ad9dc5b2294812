import { describe, expect, it } from 'vitest';
import { applyChanges, changesOverlap, mapPosition, textChanges } from './text-diff.js';
import { rawFor, roomBase } from './room-text.js';

describe('textChanges', () => {
  const cases: Array<[string, string]> = [
    ['', ''],
    ['', 'new\n'],
    ['gone\n', ''],
    ['a\nb\nc\n', 'a\nB\nc\n'],
    ['one\ntwo\nthree\nfour\n', 'zero\none\ntwo\nfour\nfive'],
    ['no newline', 'no newline at end'],
    ['x\n'.repeat(50), 'x\n'.repeat(20) + 'y\n' + 'x\n'.repeat(30)],
  ];
  it.each(cases)('turns %j into %j', (a, b) => {
    expect(applyChanges(a, textChanges(a, b))).toBe(b);
  });

  it('answers one small change per edited place, not one hunk spanning them', () => {
    const a = Array.from({ length: 100 }, (_, i) => `line ${i}\n`).join('');
    const b = a.replace('line 3\n', 'line three\n').replace('line 90\n', 'line ninety\n');
    const changes = textChanges(a, b);
    expect(changes).toHaveLength(2);
    expect(changes.map((c) => c.insert)).toEqual(['three', 'ninety']);
  });

  it('maps positions over changes and finds overlaps', () => {
    const base = 'aaaa\nbbbb\ncccc\n';
    const ours = textChanges(base, 'aaaa\nbbXXbb\ncccc\n');
    const theirs = textChanges(base, 'aaaa\nbbbb\ncYcc\n');
    expect(changesOverlap(ours, theirs)).toBe(false);
    expect(changesOverlap(ours, textChanges(base, 'aaaa\nbZbb\ncccc\n'))).toBe(true);
    expect(mapPosition(ours, base.indexOf('cccc'))).toBe(base.indexOf('cccc') + 2);
    expect(mapPosition(ours, 1)).toBe(1);
  });
});

describe('rawFor', () => {
  it('keeps the stored line breaks where nothing changed and uses the file’s own in new lines', () => {
    const base = roomBase('one\r\ntwo\r\nthree\n', 'h');
    expect(base.doc).toBe('one\ntwo\nthree\n');
    expect(base.eol).toBe('\r\n');
    expect(rawFor(base, base.doc)).toBe(base.raw);
    expect(rawFor(base, 'one\ntwo\nnew\nthree\n')).toBe('one\r\ntwo\r\nnew\r\nthree\n');
  });
});
