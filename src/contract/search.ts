import { z } from 'zod';
import { record } from './shape.js';

/** One page found by a search. */
export const searchHit = record({
  page_id: z.string(),
  path: z.string(),
  title: z.string(),
  score: z.number(),
  snippet: z.string().describe('HTML-escaped text with matches wrapped in <mark>'),
});
export type SearchHit = z.infer<typeof searchHit>;

/** `GET /api/v1/workspaces/:id/search`. */
export const searchResponse = record({
  query: z.string(),
  total: z.number().int().describe('Matching pages, counted up to 1,000: 1000 means 1,000 or more'),
  results: z.array(searchHit),
});
export type SearchResponse = z.infer<typeof searchResponse>;
