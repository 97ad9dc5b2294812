import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import type { SearchHit, SearchIndex } from '../../search/search-index.js';
import type { Store } from '../../store/database.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { AccessService } from '../access.js';
import { SEARCH_MAX_LIMIT, searchInput } from './search.js';

/** Layout B's search: the workspace and an optional tag as parameters. */
export const olderSearchInput = searchInput.extend({
  workspace: z
    .string({ error: 'workspace is required' })
    .min(1)
    .max(200)
    .describe('The workspace id or slug.'),
  tag: z.string().min(1).max(100).optional().describe('Only pages carrying this tag.'),
});
export type OlderSearchInput = z.output<typeof olderSearchInput>;

/** How many hits a tag filter looks through: a tag narrows the best matches, not the whole index. */
const TAG_SCAN = SEARCH_MAX_LIMIT * 5;

/**
 * Layout B's search, confined to one workspace the actor can read like the current one:
 * results as today, plus `has_more` and `took_ms` (the time the search took, milliseconds).
 * With a tag, the best `TAG_SCAN` matches are filtered to pages carrying it.
 */
export function createOlderSearch(deps: { store: Store; access: AccessService; searchIndex: SearchIndex }) {
  return {
    async search(actor: Actor, input: OlderSearchInput) {
      const started = performance.now();
      const { workspace } = await deps.access.require(actor, input.workspace, CAN.read);
      const found = await deps.searchIndex.query({
        workspaceId: workspace.id,
        q: input.q,
        limit: input.tag === undefined ? input.limit + 1 : TAG_SCAN,
      });
      let hits: SearchHit[] = found.results;
      let total = found.total;
      if (input.tag !== undefined) {
        const rows = await pagesTable.listByIds(
          deps.store.db,
          workspace.id,
          hits.map((hit) => hit.page_id),
        );
        const tagged = new Set(
          rows.filter((row) => (JSON.parse(row.tags) as string[]).includes(input.tag!)).map((row) => row.id),
        );
        hits = hits.filter((hit) => tagged.has(hit.page_id));
        total = hits.length;
      }
      return {
        query: input.q,
        total,
        results: hits.slice(0, input.limit),
        has_more: hits.length > input.limit,
        took_ms: Math.round(performance.now() - started),
      };
    },
  };
}
