/**
 * What a page write accepts, one schema per input, shared by the HTTP
 * routes and the MCP tools; the descriptions are written for API readers and models.
 */
import { z } from 'zod';
import {
  FRONTMATTER_LIMITS_MESSAGE,
  MAX_FRONTMATTER_DEPTH,
  MAX_FRONTMATTER_KEYS,
  countsMoreKeysThan,
  nestsDeeperThan,
} from '../../domain/frontmatter.js';

const tags = z.array(z.string().trim().min(1, 'Tags must not be empty').max(100)).max(100);

/**
 * The Markdown body of a write: `body`, or `content` as a page read answers it, so a client
 * may send back what it read. Giving both with different text is refused.
 */
const markdownBody = (description: string) => ({
  body: z.string().describe(description).optional(),
  content: z.string().describe(description).optional(),
});

function bodyFromAlias<T extends { body?: string | undefined; content?: string | undefined }>(
  input: T,
  ctx: z.RefinementCtx,
): Omit<T, 'content'> {
  const { content, ...rest } = input;
  if (content !== undefined && rest.body !== undefined && content !== rest.body) {
    ctx.addIssue({
      code: 'custom',
      path: ['content'],
      message: 'Send the body as body or content, not both',
    });
    return z.NEVER;
  }
  return { ...rest, body: rest.body ?? content };
}

// Strict: a misspelt field is refused by name instead of being silently dropped.
export const createPageFields = z.strictObject({
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(500)
    .describe('The page title.'),
  ...markdownBody('The Markdown body, without frontmatter.'),
  description: z.string().max(5000).optional().describe('A one-sentence summary of the page.'),
  publish: z.boolean().optional().describe('Publish the page on the site (status "published").'),
  tags: tags.optional().describe('Tags for the page, e.g. ["api", "howto"].'),
});
export const createPageInput = createPageFields.transform(bodyFromAlias);
export type CreatePageInput = z.output<typeof createPageInput>;

/**
 * The frontmatter keys Folio understands are checked; any other key is kept
 * as given. `null` removes a key (never `title`). `id` is Folio's own: it may
 * be repeated but not changed.
 */
export const frontmatterPatch = z
  .object({
    id: z.string().optional(),
    title: z.string().trim().min(1, 'Title must not be empty').max(500).optional(),
    description: z.string().max(5000).nullable().optional(),
    tags: tags.nullable().optional(),
    status: z.enum(['draft', 'published']).nullable().optional(),
    order: z.number().int().min(-2_147_483_647).max(2_147_483_647).nullable().optional(),
  })
  .catchall(z.unknown())
  // Before the depth check and any YAML work: a patch with too many keys is refused at once.
  .refine((fm) => !countsMoreKeysThan(fm, MAX_FRONTMATTER_KEYS), {
    message: FRONTMATTER_LIMITS_MESSAGE,
    abort: true,
  })
  .refine((fm) => !nestsDeeperThan(fm, MAX_FRONTMATTER_DEPTH), {
    message: `Frontmatter must not nest more than ${MAX_FRONTMATTER_DEPTH} levels deep`,
  });

export const updatePageFields = z.strictObject({
  ...markdownBody('The new Markdown body; omit to change only frontmatter.'),
  lastKnownHash: z
    .string()
    .min(1)
    .max(200)
    .describe('The content_hash you last read, e.g. "sha256:…".')
    .optional(),
  frontmatter: frontmatterPatch
    .optional()
    .describe('Frontmatter keys to change, e.g. { "title": "New title", "status": "published" }.'),
});
export const updatePageInput = updatePageFields.transform(bodyFromAlias);
export type UpdatePageInput = z.output<typeof updatePageInput>;
export type FrontmatterPatch = z.output<typeof frontmatterPatch>;

export const movePageInput = z.object({
  new_path: z
    .string({ error: 'new_path is required' })
    .min(1)
    .describe('The new path, e.g. "guides/installation.md".'),
});

export const movePageAliasInput = z.object({
  path: z.string({ error: 'path is required' }).min(1),
  new_path: z.string({ error: 'new_path is required' }).min(1),
});
