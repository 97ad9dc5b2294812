import { z } from 'zod';
import { listOf, record, timestamp } from './shape.js';

export const requestStatus = z.enum(['open', 'merged', 'closed']);
export type RequestStatus = z.infer<typeof requestStatus>;

export const verdict = z.enum(['approve', 'request_changes', 'comment']);
export type Verdict = z.infer<typeof verdict>;

/** A change request: edits on a branch of their own, reviewed and merged into the live pages. */
export const changeRequestRecord = record({
  number: z.number().int(),
  title: z.string(),
  description: z.string(),
  status: requestStatus,
  branch: z.string(),
  author: z.string().nullable().describe("The author's user id"),
  approvals: z.number().int(),
  required_approvals: z.number().int(),
  base_commit: z.string(),
  head_commit: z.string(),
  merge_commit: z.string().nullable(),
  merged_by: z.string().nullable(),
  closed_by: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  merged_at: timestamp.nullable(),
  closed_at: timestamp.nullable(),
});
export type ChangeRequest = z.infer<typeof changeRequestRecord>;

export const changeRequestList = listOf(changeRequestRecord);

/** One page the request changes, with its unified diff against the live branch. */
export const changedPage = record({
  path: z.string(),
  old_path: z.string().nullable(),
  change: z.enum(['created', 'updated', 'moved', 'deleted']),
  diff: z.string(),
});
export type ChangedPage = z.infer<typeof changedPage>;

/** A review: a verdict, its text and comments on lines of the changed pages. */
export const reviewRecord = record({
  id: z.string(),
  verdict,
  body: z.string(),
  reviewer: z.string().nullable(),
  reviewer_name: z.string().nullable(),
  created_at: timestamp,
  comments: z.array(record({ page: z.string(), line: z.number().int(), body: z.string() })),
});
export type Review = z.infer<typeof reviewRecord>;

/** `GET …/change-requests/:n`: the request with its pages, whole diff and reviews. */
export const changeRequestDetail = changeRequestRecord.extend({
  pages: z.array(changedPage),
  diff: z.string(),
  reviews: z.array(reviewRecord),
});
export type ChangeRequestDetail = z.infer<typeof changeRequestDetail>;
