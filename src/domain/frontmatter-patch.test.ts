import { describe, expect, it } from 'vitest';
import { patchFrontmatterText } from './frontmatter-patch.js';

const FILE =
  '\uFEFF---\r\n# kept\r\nid: X\r\ntitle: "Quoted"\r\nstatus: draft # not yet\r\nzeta: 1\r\n---\r\n\r\nBody  \r\n';

describe('patchFrontmatterText', () => {
  it('replaces one scalar value and leaves every other byte alone', () => {
    expect(patchFrontmatterText(FILE, { status: 'published' })).toBe(
      FILE.replace('status: draft # not yet', 'status: published # not yet'),
    );
  });

  it('adds a new key before the fence and removes a key by null, in the file line endings', () => {
    expect(patchFrontmatterText(FILE, { description: 'New', zeta: null })).toBe(
      FILE.replace('zeta: 1\r\n', 'description: New\r\n'),
    );
  });

  it('writes nothing new for a value that is already there', () => {
    expect(patchFrontmatterText(FILE, { title: 'Quoted', status: 'draft' })).toBe(FILE);
  });

  it('rewrites lists through the YAML model, keeping comments', () => {
    const out = patchFrontmatterText(FILE, { tags: ['a', 'b'] })!;
    expect(out).toContain('# kept\r\n');
    expect(out).toContain('tags:\r\n  - a\r\n  - b\r\n---\r\n\r\nBody  \r\n');
  });

  it('answers null for a file without frontmatter', () => {
    expect(patchFrontmatterText('Just a body\n', { status: 'published' })).toBeNull();
  });
});
