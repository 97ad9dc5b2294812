import type { Selectable } from 'kysely';
import type { CommentsTable, Flag } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * The `comments` table: page comments in threads (a reply's `parent_id` is its thread's
 * root; resolution is kept on the root), keyed by page id so they follow moves. Mentions are
 * a JSON array of user ids.
 */

export type CommentRow = Selectable<CommentsTable>;

/** A comment with its page's current path and restriction and its author's name and handle. */
export interface CommentView extends CommentRow {
  page_path: string;
  page_restricted: Flag;
  author_name: string;
  author_handle: string;
}

/** Comments joined with their page and their author. */
function commentViews(db: Queryable) {
  return db
    .selectFrom('comments')
    .innerJoin('pages', 'pages.id', 'comments.page_id')
    .innerJoin('users', 'users.id', 'comments.author_id')
    .selectAll('comments')
    .select([
      'pages.path as page_path',
      'pages.restricted as page_restricted',
      'users.name as author_name',
      'users.handle as author_handle',
    ]);
}

/** A comment with its page and author; undefined when there is none (or its page is gone). */
export function findCommentView(db: Queryable, id: string): Promise<CommentView | undefined> {
  return commentViews(db).where('comments.id', '=', id).executeTakeFirst();
}

/**
 * Thread roots of a workspace in id order (oldest first), of one page when `pageId` is given,
 * of unrestricted pages only when `unrestrictedOnly`, after the id `after`, at most `limit`.
 */
export function listThreadRoots(
  db: Queryable,
  workspaceId: string,
  options: { pageId?: string; unrestrictedOnly: boolean; after?: string; limit: number },
): Promise<CommentView[]> {
  let query = commentViews(db)
    .where('comments.workspace_id', '=', workspaceId)
    .where('comments.parent_id', 'is', null);
  if (options.pageId !== undefined) query = query.where('comments.page_id', '=', options.pageId);
  if (options.unrestrictedOnly) query = query.where('pages.restricted', '=', 0);
  if (options.after) query = query.where('comments.id', '>', options.after);
  return query.orderBy('comments.id').limit(options.limit).execute();
}

/** The replies in these threads, in the order they were written. */
export async function listReplies(db: Queryable, rootIds: readonly string[]): Promise<CommentView[]> {
  if (rootIds.length === 0) return [];
  return commentViews(db).where('comments.parent_id', 'in', rootIds).orderBy('comments.id').execute();
}

/** A comment by id. */
export function findComment(db: Queryable, id: string): Promise<CommentRow | undefined> {
  return db.selectFrom('comments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A comment of the workspace by id: what a reply needs to know of its parent. */
export function findCommentInWorkspace(
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<Pick<CommentRow, 'id' | 'parent_id' | 'page_id'> | undefined> {
  return db
    .selectFrom('comments')
    .select(['id', 'parent_id', 'page_id'])
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

/** Adds a comment. */
export async function insertComment(db: Queryable, row: CommentRow): Promise<void> {
  await db.insertInto('comments').values(row).execute();
}

/** Sets a thread's resolution on its root comment. */
export async function setResolution(
  db: Queryable,
  rootId: string,
  resolution: Pick<CommentRow, 'resolved' | 'resolved_by' | 'resolved_at'>,
): Promise<void> {
  await db.updateTable('comments').set(resolution).where('id', '=', rootId).execute();
}

/** Replaces a comment's body and mentions. */
export async function updateBody(
  db: Queryable,
  id: string,
  edit: Pick<CommentRow, 'body' | 'mentions' | 'updated_at'>,
): Promise<void> {
  await db.updateTable('comments').set(edit).where('id', '=', id).execute();
}

/** Deletes a comment and, when it is a thread's root, the replies in its thread. */
export async function deleteWithReplies(db: Queryable, id: string): Promise<void> {
  await db
    .deleteFrom('comments')
    .where((eb) => eb.or([eb('id', '=', id), eb('parent_id', '=', id)]))
    .execute();
}

/** How a mention shows a user. */
export interface MentionedUser {
  id: string;
  name: string;
  handle: string;
}

/** The users with these ids, as mentions show them (unknown ids are left out). */
export async function listMentionedUsers(db: Queryable, ids: readonly string[]): Promise<MentionedUser[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('users').select(['id', 'name', 'handle']).where('id', 'in', ids).execute();
}

/** Ids of the users with these handles, whom a comment may mention. */
export async function findUserIdsByHandles(db: Queryable, handles: readonly string[]): Promise<string[]> {
  if (handles.length === 0) return [];
  const rows = await db.selectFrom('users').select('id').where('handle', 'in', handles).execute();
  return rows.map((r) => r.id);
}
