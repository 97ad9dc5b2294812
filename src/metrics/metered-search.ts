import type { SearchIndex } from '../search/search-index.js';
import type { Metrics } from './metrics.js';

/**
 * The search index with each query timed: `scope` is `site` for the published site's
 * search (published pages only) and `workspace` for the API's and MCP's.
 */
export function meteredSearch(index: SearchIndex, metrics: Metrics): SearchIndex {
  if (!metrics.enabled) return index;
  const query: SearchIndex['query'] = async (q) => {
    const started = performance.now();
    try {
      return await index.query(q);
    } finally {
      const scope = q.publishedOnly ? 'site' : 'workspace';
      metrics.search.observe({ scope }, (performance.now() - started) / 1000);
    }
  };
  return Object.assign(Object.create(index) as SearchIndex, { query });
}
