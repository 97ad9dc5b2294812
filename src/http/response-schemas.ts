import { z } from 'zod';
import { listOf, record, timestamp, userRef } from '../contract/shape.js';

// Response schemas not yet moved to their feature's file in src/contract/.

/** the API's page object. */
export const pageObject = record({
  page_id: z.string(),
  path: z.string(),
  title: z.string(),
  description: z.string(),
  content: z.string(),
  content_hash: z.string(),
  frontmatter_hash: z.string(),
  tags: z.array(z.string()),
  status: z.string(),
  sort_order: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
  updated_by: z.string().nullable(),
  frontmatter_error: z.string().nullable(),
  restricted: z.boolean(),
});

/** The API's tree node; folders have `page_id: null`. */
const treeNode = record({
  type: z.enum(['folder', 'page']),
  name: z.string(),
  path: z.string(),
  title: z.string(),
  page_id: z.string().nullable(),
  sort_order: z.number().int(),
  children: z.array(z.unknown()).describe('Child nodes, of this same shape'),
});

export const pageTree = record({ tree: z.array(treeNode) });

/** The API's search response. */
export const searchResponse = record({
  query: z.string(),
  total: z.number().int().describe('Matching pages, counted up to 1,000: 1000 means 1,000 or more'),
  results: z.array(
    record({
      page_id: z.string(),
      path: z.string(),
      title: z.string(),
      score: z.number(),
      snippet: z.string().describe('HTML-escaped text with matches wrapped in <mark>'),
    }),
  ),
});

/** The API's comment, with its rendered body. */
export const commentRecord = record({
  id: z.string(),
  page: z.string(),
  body: z.string(),
  body_html: z.string(),
  author: userRef,
  parent_id: z.string().nullable(),
  mentions: z.array(userRef),
  resolved: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});

/** Threads: each root comment with its replies in the order they were written. */
export const commentList = listOf(commentRecord.extend({ replies: z.array(commentRecord) }));

/** `POST /api/v1/content/:workspace/preview`: the page as the published site would show it. */
export const pagePreview = record({
  html: z
    .string()
    .describe("The article's header and prose, sanitised HTML exactly as the site renders them"),
  title: z.string(),
  theme: z.string().describe("The workspace's site theme"),
  stylesheet: z.string().describe("The theme's stylesheet URL on the published site"),
});
