import { describe, expect, it } from 'vitest';
import { createRenderer } from './markdown.js';
import { RenderCache, renderCacheKey } from './render-cache.js';
import type { RenderedPage } from './markdown.js';

const page = (html: string): RenderedPage => ({ html, toc: [], links: [] });

describe('RenderCache', () => {
  it('renders once per content hash and context, then hits', () => {
    const renderer = createRenderer();
    const cache = new RenderCache();
    let renders = 0;
    const get = (hash: string, context: string, body: string) =>
      cache.getOrRender(renderCacheKey(hash, context), () => {
        renders++;
        return renderer.render(body, { pagePath: 'a.md', resolveWikilink: () => null });
      });

    const first = get('sha256:aaa', 'ws1:rev1', '# Hello');
    const second = get('sha256:aaa', 'ws1:rev1', '# Hello');
    expect(second).toBe(first);
    expect(renders).toBe(1);
    expect(cache.stats).toMatchObject({ hits: 1, misses: 1, entries: 1 });

    get('sha256:aaa', 'ws1:rev2', '# Hello');
    get('sha256:bbb', 'ws1:rev1', '# Changed');
    expect(renders).toBe(3);
    expect(cache.stats).toMatchObject({ hits: 1, misses: 3, entries: 3 });
  });

  it('evicts the least recently used entry beyond maxEntries', () => {
    const cache = new RenderCache({ maxEntries: 2 });
    cache.set('a', page('a'));
    cache.set('b', page('b'));
    expect(cache.get('a')?.html).toBe('a'); // a is now the most recent
    cache.set('c', page('c'));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.html).toBe('a');
    expect(cache.get('c')?.html).toBe('c');
    expect(cache.stats.evictions).toBe(1);
  });

  it('stays under maxBytes and does not store a page larger than the budget', () => {
    const cache = new RenderCache({ maxEntries: 100, maxBytes: 10_000 });
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, page('x'.repeat(1_500)));
    expect(cache.stats.bytes).toBeLessThanOrEqual(10_000);
    expect(cache.stats.entries).toBeLessThan(10);
    expect(cache.get('k9')).toBeDefined();

    let calls = 0;
    const huge = () => {
      calls++;
      return page('y'.repeat(20_000));
    };
    expect(cache.getOrRender('huge', huge).html).toHaveLength(20_000);
    cache.getOrRender('huge', huge);
    expect(calls).toBe(2);
    expect(cache.stats.bytes).toBeLessThanOrEqual(10_000);
  });

  it('does not cache failed renders and supports delete and clear', () => {
    const cache = new RenderCache();
    expect(() =>
      cache.getOrRender('k', () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(cache.stats.entries).toBe(0);
    cache.set('k', page('v'));
    expect(cache.delete('k')).toBe(true);
    expect(cache.delete('k')).toBe(false);
    cache.set('k', page('v'));
    cache.clear();
    expect(cache.stats).toMatchObject({ entries: 0, bytes: 0 });
  });
});
