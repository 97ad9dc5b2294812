/**
 * Inputs of Layout C's pages-by-id routes, one schema each, beside the
 * service that takes them. Loose objects: older clients send fields Folio never knew.
 */
import { z } from 'zod';

const tags = z.array(z.string().trim().min(1).max(100)).max(100);
/** Query strings carry booleans as text. */
const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

export const listPagesByIdInput = z.object({
  parent_id: z.string().min(1).max(100).optional().describe('Only the direct children of this page.'),
  tag: z.string().min(1).max(100).optional().describe('Only pages carrying this tag.'),
  published: flag.optional().describe('Only published (true) or unpublished (false) pages.'),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('Page size, default 100.'),
  offset: z.coerce.number().int().min(0).default(0).describe('How many pages to skip.'),
});
export type ListPagesByIdInput = z.output<typeof listPagesByIdInput>;

export const createPageByIdInput = z.object({
  title: z.string({ error: 'Title is required' }).trim().min(1, 'Title is required').max(500),
  content: z.string().optional().describe('The Markdown body.'),
  description: z.string().max(5000).optional(),
  tags: tags.optional(),
  published: z.boolean().optional(),
  parent_id: z.string().min(1).max(100).optional().describe('Create the page below this page.'),
  slug: z.string().min(1).max(200).optional().describe('File name without .md; from the title by default.'),
});
export type CreatePageByIdInput = z.output<typeof createPageByIdInput>;

export const updatePageByIdInput = z.object({
  content_hash: z
    .string({ error: 'content_hash is required: send the content_hash you last read' })
    .min(1)
    .max(200)
    .describe('The content_hash you last read (optimistic concurrency).'),
  content: z.string().optional(),
  title: z.string().trim().min(1).max(500).optional(),
  description: z.string().max(5000).optional(),
  tags: tags.optional(),
  published: z.boolean().optional(),
});
export type UpdatePageByIdInput = z.output<typeof updatePageByIdInput>;
