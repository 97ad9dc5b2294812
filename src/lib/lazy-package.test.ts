import { describe, expect, it } from 'vitest';
import type * as Yaml from 'yaml';
import { lazyPackage } from './lazy-package.js';

describe('lazyPackage', () => {
  it('loads the package on the first call and hands back the same module after that', () => {
    const yaml = lazyPackage<typeof Yaml>('yaml');
    const first = yaml();
    expect(first.parse('a: 1')).toEqual({ a: 1 });
    expect(yaml()).toBe(first);
  });

  it('says nothing of a missing package until it is used', () => {
    const missing = lazyPackage('folio-no-such-package');
    expect(() => missing()).toThrow(/Cannot find module 'folio-no-such-package'/);
  });
});
