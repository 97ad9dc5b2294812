/**
 * What page history accepts, one schema per input, shared by the HTTP routes and the
 * OpenAPI document. Commit ids are checked strictly here (7 to 40 hex digits); paths are
 * normalised by the service, which answers 400 VALIDATION_ERROR for one that is not a page path.
 */
import { z } from 'zod';
import { COMMIT_ID_RE } from '../../git/history.js';

const page = z
  .string({ error: 'page is required' })
  .min(1, 'page is required')
  .max(1024)
  .describe('The page path, e.g. guides/start.md.');

const commit = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .regex(COMMIT_ID_RE, `${what} must be a commit id: 7 to 40 hexadecimal digits`);

const limit = z.coerce
  .number()
  .int('limit must be a whole number')
  .min(1)
  .max(100)
  .default(20)
  .describe('Most entries to return (default 20).');

const cursor = z
  .string()
  .max(2000)
  .regex(/^[0-9a-f]{40}\.\d{1,9}\.[A-Za-z0-9_-]*$/, 'cursor is not one this API gave out')
  .optional()
  .describe('next_cursor from a previous call, for the next page.');

/** `GET …/history`: the commits that touched a page. */
export const pageHistoryInput = z.object({ page, cursor, limit });

/** `GET …/history/:commit`: the page's Markdown at a commit. */
export const pageAtCommitInput = z.object({ page });

/** `:commit` of `GET …/history/:commit`. */
export const commitParams = z.object({
  id: z.string().describe('The workspace id or its slug'),
  commit: commit('commit').describe('A commit id (7 to 40 hexadecimal digits).'),
});

/** `GET …/history/diff`: how the page changed between two commits, or a commit and now. */
export const pageDiffInput = z.object({
  page,
  from: commit('from').describe('The older commit id.'),
  to: z
    .union([z.literal('current'), commit('to')])
    .default('current')
    .describe('The newer commit id, or "current" (the default) for the page as it is now.'),
});

/** `POST …/history/restore`: writes a past revision of a page as a new save. */
export const restorePageInput = z.strictObject({
  page,
  commit: commit('commit').describe('The commit whose version of the page to restore.'),
  lastKnownHash: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('The content_hash of the page as you last read it; omit when restoring a deleted page.'),
});

/** `GET …/history/deleted`: pages deleted from the workspace. */
export const deletedPagesInput = z.object({
  cursor: z
    .string()
    .max(100)
    .regex(/^[0-9a-f]{40}\.\d{1,9}$/, 'cursor is not one this API gave out')
    .optional()
    .describe('next_cursor from a previous call, for the next page.'),
  limit,
});
