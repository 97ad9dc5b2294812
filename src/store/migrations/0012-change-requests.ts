import type { Kysely } from 'kysely';

/**
 * Change requests: a named set of page edits on their own git branch (`folio/cr/<number>`),
 * reviewed before they are merged into the workspace's branch. The edits themselves live
 * only in git (the branch and its worktree): these tables hold what git cannot.
 *
 * - `change_requests`: one row per request, numbered per workspace; `base_commit` is the
 *   live commit the branch started from, `head_commit` its last commit (so a merge made on
 *   the git host is recognised), `merge_commit` the live commit that merged it.
 * - `change_request_reviews`: each review's verdict and body.
 * - `change_request_review_comments`: a review's inline comments on a line of a page.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('change_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text')
    .addColumn('base_commit', 'text', (c) => c.notNull())
    .addColumn('head_commit', 'text', (c) => c.notNull())
    .addColumn('merge_commit', 'text')
    .addColumn('merged_by', 'text')
    .addColumn('closed_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('merged_at', 'text')
    .addColumn('closed_at', 'text')
    .execute();
  await db.schema
    .createIndex('change_requests_number')
    .on('change_requests')
    .columns(['workspace_id', 'number'])
    .unique()
    .execute();
  await db.schema
    .createIndex('change_requests_status')
    .on('change_requests')
    .columns(['workspace_id', 'status'])
    .execute();

  await db.schema
    .createTable('change_request_reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('change_request_id', 'text', (c) =>
      c.notNull().references('change_requests.id').onDelete('cascade'),
    )
    .addColumn('reviewer_id', 'text')
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('change_request_reviews_request')
    .on('change_request_reviews')
    .columns(['change_request_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('change_request_review_comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('review_id', 'text', (c) =>
      c.notNull().references('change_request_reviews.id').onDelete('cascade'),
    )
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('change_request_review_comments_review')
    .on('change_request_review_comments')
    .column('review_id')
    .execute();
}
