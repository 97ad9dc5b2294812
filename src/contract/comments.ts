import { z } from 'zod';
import { listOf, record, timestamp, userRef } from './shape.js';

/** A comment on a page, with its rendered body. */
export const commentRecord = record({
  id: z.string(),
  page: z.string().describe("The page's current path (comments follow moves)"),
  body: z.string(),
  body_html: z.string(),
  author: userRef,
  parent_id: z.string().nullable(),
  mentions: z.array(userRef),
  resolved: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Comment = z.infer<typeof commentRecord>;

/** A thread: a root comment with its replies in the order they were written. */
export const commentThread = commentRecord.extend({ replies: z.array(commentRecord) });
export type CommentThread = z.infer<typeof commentThread>;

export const commentList = listOf(commentThread);

/** A person as comments name them (author, mentions, the workspace's people). */
export type PersonRef = z.infer<typeof userRef>;
