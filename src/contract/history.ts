import { z } from 'zod';
import { pageObject } from './pages.js';
import { listOf, record, timestamp } from './shape.js';

const pageChange = z.enum(['created', 'updated', 'moved', 'deleted']);

/** Who made a commit: the name git recorded, the Folio user with that email, the email for admins. */
const historyAuthor = record({
  name: z.string(),
  user_id: z.string().optional(),
  handle: z.string().optional(),
  email: z.string().optional().describe("Shown to the workspace's admins only"),
});

/** One commit of a page's history, renames followed. */
export const revisionRecord = record({
  commit: z.string(),
  author: historyAuthor,
  message: z.string(),
  created_at: timestamp,
  path_at_commit: z.string(),
  change: pageChange,
});
export type Revision = z.infer<typeof revisionRecord>;

export const revisionList = listOf(revisionRecord);

/** A page deleted from the tree, with the last commit that still holds its file. */
export const deletedPageRecord = revisionRecord.extend({
  path: z.string(),
  restore_commit: z.string().nullable(),
});
export type DeletedPage = z.infer<typeof deletedPageRecord>;

export const deletedPageList = listOf(deletedPageRecord);

/** The page's Markdown (frontmatter and body) at a commit. */
export const pageAtCommit = record({
  commit: z.string(),
  page: z.string(),
  path_at_commit: z.string(),
  content: z.string(),
});
export type PageAtCommit = z.infer<typeof pageAtCommit>;

const diffLine = record({
  kind: z.enum(['context', 'added', 'removed']),
  old_line: z.number().int().nullable().describe('Line in the old text; null for an added line'),
  new_line: z.number().int().nullable().describe('Line in the new text; null for a removed line'),
  text: z.string(),
});
export type DiffLine = z.infer<typeof diffLine>;

/** How a page changed from one commit to another, or to its current text (`to: "current"`). */
export const pageDiff = record({
  page: z.string(),
  from: z.string(),
  to: z.string(),
  path_from: z.string(),
  path_to: z.string(),
  unified: z.string().describe('A unified diff with 3 lines of context; empty when equal'),
  hunks: z.array(
    record({
      old_start: z.number().int(),
      old_lines: z.number().int(),
      new_start: z.number().int(),
      new_lines: z.number().int(),
      lines: z.array(diffLine),
    }),
  ),
});
export type PageDiff = z.infer<typeof pageDiff>;

/** `POST …/history/restore`: the page as saved, 201 when it was created again. */
export const restoredPage = record({
  page: pageObject,
  restored_from: z.string().describe('The commit whose version was restored'),
  created: z.boolean().describe('True when the page had been deleted and was created again'),
});
export type RestoredPage = z.infer<typeof restoredPage>;
