import { z } from 'zod';
import { listOf, record, timestamp } from './shape.js';

/** A page: its file's Markdown body and frontmatter fields, and the index's view of it. */
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
  updated_by: z
    .string()
    .nullable()
    .describe('Who last saved through Folio; null after an edit on disk or by git'),
  frontmatter_error: z.string().nullable().describe('Lenient mode: why the frontmatter on disk was not used'),
  restricted: z.boolean().describe('Strict mode: invalid frontmatter, shown to admins only'),
});
export type Page = z.infer<typeof pageObject>;

/** A node of the page tree; folders have `page_id: null`. */
const treeNode = record({
  type: z.enum(['folder', 'page']),
  name: z.string(),
  path: z.string(),
  title: z.string(),
  page_id: z.string().nullable(),
  sort_order: z.number().int(),
  children: z.array(z.unknown()).describe('Child nodes, of this same shape'),
});
/** The document names `children` loosely (no recursive schema); the type is exact. */
export type TreeNode = Omit<z.infer<typeof treeNode>, 'children'> & { children: TreeNode[] };

export const pageTree = record({ tree: z.array(treeNode) });

/** `POST …/preview`: the page as the published site would show it. */
export const pagePreview = record({
  html: z
    .string()
    .describe("The article's header and prose, sanitised HTML exactly as the site renders them"),
  title: z.string(),
  theme: z.string().describe("The workspace's site theme"),
  stylesheet: z.string().describe("The theme's stylesheet URL on the published site"),
});
export type PagePreview = z.infer<typeof pagePreview>;

/** The 201 answer of an upload. */
export const storedUpload = record({
  path: z.string().describe('Workspace-relative path, as a page links to it'),
  url: z.string().describe('Where the API serves the file'),
  filename: z.string(),
  size: z.number().int(),
  content_type: z.string(),
});
export type StoredUploadRecord = z.infer<typeof storedUpload>;

/** A page template as listed: enough to choose one. */
export const templateSummary = record({ id: z.string(), name: z.string(), description: z.string() });
export const templateList = listOf(templateSummary);

/** One template in full. */
export const templateRecord = templateSummary.extend({
  title: z.string().describe('Suggested title of a page made from it'),
  body: z.string().describe('Markdown body, without frontmatter'),
  frontmatter: z.record(z.string(), z.unknown()).describe('Suggested frontmatter keys'),
});
export type PageTemplate = z.infer<typeof templateRecord>;
