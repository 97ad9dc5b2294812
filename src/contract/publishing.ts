import { z } from 'zod';
import { record } from './shape.js';

/** `POST …/publish`: the drafts now published; the site is public. */
export const publishResult = record({
  published: z.array(z.string()).describe('Paths of the pages that were drafts'),
  public_site: z.literal(true),
});
export type PublishResult = z.infer<typeof publishResult>;

export const qualityIssueType = z.enum([
  'dead_link',
  'ambiguous_link',
  'missing_anchor',
  'missing_title',
  'missing_description',
  'empty_page',
  'short_page',
  'missing_alt',
  'orphan_page',
  'unknown_component',
  'unsupported_icon',
  'shadowed_page',
]);

/** One finding on one page. */
export const qualityIssue = record({
  type: qualityIssueType,
  severity: z.enum(['error', 'warning']),
  path: z.string(),
  message: z.string(),
  target: z.string().optional().describe('The link target or image source concerned, as written'),
  line: z.number().int().optional().describe("1-based line in the page's body"),
});
export type QualityIssue = z.infer<typeof qualityIssue>;

/** GET `…/quality`: the workspace's score and each page's findings. */
export const qualityReport = record({
  score: z.number().describe('0 to 100'),
  page_count: z.number().int(),
  average_readability: z.number().describe('Mean Flesch reading ease'),
  issue_counts: z.record(qualityIssueType, z.number().int()),
  pages: z.array(
    record({
      path: z.string(),
      title: z.string(),
      status: z.string(),
      word_count: z.number().int(),
      readability: z.number(),
      score: z.number(),
      issues: z.array(qualityIssue),
    }),
  ),
});
export type QualityReport = z.infer<typeof qualityReport>;
