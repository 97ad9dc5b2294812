import type {
  ChangeRequestReviewCommentRow,
  ChangeRequestReviewRow,
  ChangeRequestRow,
  ChangeRequestsTable,
} from '../schema.js';
import type { Queryable } from './queryable.js';

export type ChangeRequestStatus = ChangeRequestRow['status'];

/** The next free request number of a workspace (1 for the first); the caller serialises creation. */
export async function nextNumber(db: Queryable, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('change_requests')
    .select((eb) => eb.fn.max('number').as('top'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return Number(row?.top ?? 0) + 1;
}

/** Inserts a new request row. */
export async function insert(db: Queryable, row: ChangeRequestRow): Promise<void> {
  await db.insertInto('change_requests').values(row).execute();
}

/** Request `number` of the workspace, or undefined. */
export function findByNumber(
  db: Queryable,
  workspaceId: string,
  number: number,
): Promise<ChangeRequestRow | undefined> {
  return db
    .selectFrom('change_requests')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('number', '=', number)
    .executeTakeFirst();
}

/** A page of a workspace's requests, newest (highest number) first, below `before` when given. */
export function list(
  db: Queryable,
  workspaceId: string,
  options: { status?: ChangeRequestStatus | undefined; before?: number | undefined; limit: number },
): Promise<ChangeRequestRow[]> {
  let query = db.selectFrom('change_requests').selectAll().where('workspace_id', '=', workspaceId);
  if (options.status) query = query.where('status', '=', options.status);
  if (options.before !== undefined) query = query.where('number', '<', options.before);
  return query.orderBy('number', 'desc').limit(options.limit).execute();
}

/** The open requests of a workspace, oldest first. */
export function listOpen(db: Queryable, workspaceId: string): Promise<ChangeRequestRow[]> {
  return db
    .selectFrom('change_requests')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'open')
    .orderBy('number', 'asc')
    .execute();
}

/**
 * Changes an open request's row; answers false when it was no longer open (another
 * merge or close got there first), so a request is merged or closed exactly once.
 */
export async function updateOpen(
  db: Queryable,
  id: string,
  changes: Partial<Omit<ChangeRequestsTable, 'id' | 'workspace_id' | 'number'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('change_requests')
    .set(changes)
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Inserts a review with its inline comments. */
export async function insertReview(
  db: Queryable,
  review: ChangeRequestReviewRow,
  comments: readonly ChangeRequestReviewCommentRow[],
): Promise<void> {
  await db.insertInto('change_request_reviews').values(review).execute();
  if (comments.length > 0)
    await db
      .insertInto('change_request_review_comments')
      .values([...comments])
      .execute();
}

/** A request's reviews, oldest first, each with its inline comments in line order. */
export async function reviewsOf(
  db: Queryable,
  changeRequestId: string,
): Promise<Array<ChangeRequestReviewRow & { comments: ChangeRequestReviewCommentRow[] }>> {
  const reviews = await db
    .selectFrom('change_request_reviews')
    .selectAll()
    .where('change_request_id', '=', changeRequestId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  if (reviews.length === 0) return [];
  const comments = await db
    .selectFrom('change_request_review_comments')
    .selectAll()
    .where(
      'review_id',
      'in',
      reviews.map((r) => r.id),
    )
    .orderBy('page', 'asc')
    .orderBy('line', 'asc')
    .execute();
  return reviews.map((r) => ({ ...r, comments: comments.filter((c) => c.review_id === r.id) }));
}
