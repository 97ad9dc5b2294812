import { describe, expect, it } from 'vitest';
import { BODY_HEAD, splitBody } from './sqlite-fts.js';

describe('splitBody', () => {
  it('keeps a short body whole', () => {
    expect(splitBody('short body')).toEqual(['short body', '']);
  });

  it('splits a long body at whitespace, losing nothing and cutting no word', () => {
    const body = 'alpha beta gamma '.repeat(400);
    const [head, rest] = splitBody(body);
    expect(head + rest).toBe(body);
    expect(head.length).toBeLessThanOrEqual(BODY_HEAD);
    expect(head.length).toBeGreaterThan(BODY_HEAD - 20);
    expect(rest).toMatch(/^\s/);
  });

  it('cuts at the limit when there is no whitespace to cut at', () => {
    const [head, rest] = splitBody('x'.repeat(BODY_HEAD + 5));
    expect([head.length, rest.length]).toEqual([BODY_HEAD, 5]);
  });
});
