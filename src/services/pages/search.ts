import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import type { SearchHit, SearchIndex } from '../../search/search-index.js';
import type { AccessService } from '../access.js';

/** `limit` defaults to 20 and may be at most 100. */
export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 100;

/** `q` and `limit` of a search, from a query string (strings) or a tool call (numbers). */
export const searchInput = z.object({
  q: z
    .string({ error: 'q is required' })
    .trim()
    .min(1, 'q is required')
    .max(500, 'q must be at most 500 characters')
    .describe('Words to search for, e.g. "install docker".'),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(SEARCH_MAX_LIMIT, `limit must be at most ${SEARCH_MAX_LIMIT}`)
    .default(SEARCH_DEFAULT_LIMIT)
    .describe(`Most results to return (default ${SEARCH_DEFAULT_LIMIT}).`),
});

export type SearchInput = z.output<typeof searchInput>;

/** The API's search response. */
export interface SearchResponse {
  query: string;
  /** Matching pages, counted up to SEARCH_TOTAL_CAP: that number means "this many or more". */
  total: number;
  results: SearchHit[];
}

/**
 * Full-text search confined to one workspace the actor can read.
 * Restricted pages never appear; drafts do, since every reader of the workspace may open
 * them (the published site's search passes `publishedOnly` to the index instead).
 */
export function createSearchService(deps: { access: AccessService; searchIndex: SearchIndex }) {
  return {
    /** Best matches first; NOT_FOUND when the workspace is absent or unreadable. */
    async search(actor: Actor, workspaceIdOrSlug: string, input: SearchInput): Promise<SearchResponse> {
      const { workspace } = await deps.access.require(actor, workspaceIdOrSlug, CAN.read);
      const { total, results } = await deps.searchIndex.query({
        workspaceId: workspace.id,
        q: input.q,
        limit: input.limit,
      });
      return { query: input.q, total, results };
    },
  };
}
