import type { ChangedPath } from '../../git/repository.js';
import type {
  ChangeRequestReviewCommentRow,
  ChangeRequestReviewRow,
  ChangeRequestRow,
} from '../../store/schema.js';

/** A change request as the API answers it. */
export interface ChangeRequestObject {
  number: number;
  title: string;
  description: string;
  status: ChangeRequestRow['status'];
  branch: string;
  author: string | null;
  approvals: number;
  required_approvals: number;
  base_commit: string;
  head_commit: string;
  merge_commit: string | null;
  merged_by: string | null;
  closed_by: string | null;
  created_at: string;
  updated_at: string;
  merged_at: string | null;
  closed_at: string | null;
}

export type ReviewWithComments = ChangeRequestReviewRow & { comments: ChangeRequestReviewCommentRow[] };

/** One page the request changes, with its unified diff against the live branch. */
export interface ChangedPage {
  path: string;
  old_path: string | null;
  change: 'created' | 'updated' | 'moved' | 'deleted';
  diff: string;
}

const CHANGE = { A: 'created', M: 'updated', R: 'moved', D: 'deleted' } as const;

/** The page-level change of a path git reports. */
export const changeOf = (c: ChangedPath): ChangedPage['change'] => CHANGE[c.status];

/**
 * Approvals that count: each reviewer's latest approve or request_changes verdict, the
 * author's own never (they cannot approve; see reviews).
 */
export function countApprovals(
  request: ChangeRequestRow,
  reviews: readonly ChangeRequestReviewRow[],
): number {
  const latest = new Map<string, ChangeRequestReviewRow['verdict']>();
  for (const r of reviews) {
    if (r.reviewer_id === null || r.reviewer_id === request.author_id || r.verdict === 'comment') continue;
    latest.set(r.reviewer_id, r.verdict);
  }
  return [...latest.values()].filter((v) => v === 'approve').length;
}

export function presentRequest(
  row: ChangeRequestRow,
  approvals: number,
  requiredApprovals: number,
): ChangeRequestObject {
  return {
    number: row.number,
    title: row.title,
    description: row.description,
    status: row.status,
    branch: `folio/cr/${row.number}`,
    author: row.author_id,
    approvals,
    required_approvals: requiredApprovals,
    base_commit: row.base_commit,
    head_commit: row.head_commit,
    merge_commit: row.merge_commit,
    merged_by: row.merged_by,
    closed_by: row.closed_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
    merged_at: row.merged_at,
    closed_at: row.closed_at,
  };
}

export function presentReview(review: ReviewWithComments, reviewerName: string | null) {
  return {
    id: review.id,
    verdict: review.verdict,
    body: review.body,
    reviewer: review.reviewer_id,
    reviewer_name: reviewerName,
    created_at: review.created_at,
    comments: review.comments.map((c) => ({ page: c.page, line: c.line, body: c.body })),
  };
}
