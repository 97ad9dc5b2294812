import { ulid } from 'ulid';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { normalizePagePath } from '../../domain/paths.js';
import { atLeast, CAN, type Requirement, type Role } from '../../domain/policy.js';
import { forbidden, invalid, notFound } from '../../errors.js';
import { renderComment } from '../../render/markdown-loader.js';
import type { Store } from '../../store/database.js';
import * as commentsTable from '../../store/repositories/comments.js';
import type { CommentView } from '../../store/repositories/comments.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import { record } from '../activity.js';
import type { Clock } from '../../lib/clock.js';
import type { EventBus } from '../../events/bus.js';
import type { EventPayloads } from '../../events/types.js';
import { effectiveRole } from './members.js';

const body = z
  .string({ error: 'body is required' })
  .max(20_000, 'body must be at most 20000 characters')
  .refine((b) => b.trim().length > 0, 'body must not be empty')
  .describe('The comment text in Markdown.');

export const createCommentInput = z.object({
  page: z
    .string({ error: 'page is required' })
    .min(1, 'page is required')
    .max(1100)
    .describe('The page path the comment is about.'),
  body,
  parent_id: z.string().max(40).nullable().optional().describe('The id of the comment this replies to.'),
});

export const updateCommentInput = z.object({ body });

export const listCommentsInput = z.object({
  page: z
    .string()
    .min(1)
    .max(1100)
    .optional()
    .describe('Only comments on this page path, e.g. "guides/setup.md".'),
  limit: z.coerce.number().int().min(1).max(100).default(50).describe('Most threads to return (default 50).'),
  cursor: z.string().max(40).optional().describe('next_cursor from a previous call, for the next page.'),
});

export interface UserRef {
  id: string;
  name: string;
  handle: string;
}

/** The API's comment record, plus its rendered body. */
export interface CommentRecord {
  id: string;
  /** The page's current path (comments are keyed by page_id and follow moves). */
  page: string;
  body: string;
  body_html: string;
  author: UserRef;
  parent_id: string | null;
  mentions: UserRef[];
  resolved: boolean;
  created_at: string;
  updated_at: string;
}

/** A thread: its root comment with the replies in the order they were written. */
export type CommentThread = CommentRecord & { replies: CommentRecord[] };

const MAX_MENTIONS = 50;

/**
 * `@handle` mentions in a Markdown body, lower-cased and de-duplicated. Code
 * spans and fenced blocks are skipped (`@decorator` in code is no mention),
 * and so are email addresses (`a@b.c`).
 */
export function parseMentions(markdown: string): string[] {
  const text = markdown.replace(/(^|\n)(```|~~~)[\s\S]*?(\n\2|$)/g, '\n').replace(/`[^`\n]*`/g, ' ');
  const handles = new Set<string>();
  for (const match of text.matchAll(/(^|[^A-Za-z0-9_.@/-])@([a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)/gi)) {
    handles.add(match[2]!.toLowerCase());
    if (handles.size >= MAX_MENTIONS) break;
  }
  return [...handles];
}

/**
 * Page comments and threads. Reading needs read access;
 * commenting the commenter role; resolving the editor role. Authors edit
 * their own comments; authors and admins delete them.
 */
export function createComments(deps: {
  store: Store;
  clock: Clock;
  access: AccessService;
  events: EventBus;
}) {
  const db = deps.store.db;

  /** Tells the page's open comment panels (WebSocket `comment-changed`), after the change is stored. */
  const changed = (
    workspaceId: string,
    path: string,
    commentId: string,
    actor: Actor,
    change: EventPayloads['comment-changed']['change'],
  ) =>
    deps.events.emit('comment-changed', {
      workspace_id: workspaceId,
      path,
      comment_id: commentId,
      actor: actor.userId,
      change,
    });

  async function mentionRefs(rows: CommentView[]): Promise<Map<string, UserRef>> {
    const ids = [...new Set(rows.flatMap((r) => JSON.parse(r.mentions) as string[]))];
    const users = await commentsTable.listMentionedUsers(db, ids);
    return new Map(users.map((u) => [u.id, u]));
  }

  async function present(rows: CommentView[]): Promise<CommentRecord[]> {
    const refs = await mentionRefs(rows);
    const bodiesHtml = await Promise.all(rows.map((r) => renderComment(r.body)));
    return rows.map((r, i) => ({
      id: r.id,
      page: r.page_path,
      body: r.body,
      body_html: bodiesHtml[i]!,
      author: { id: r.author_id, name: r.author_name, handle: r.author_handle },
      parent_id: r.parent_id,
      mentions: (JSON.parse(r.mentions) as string[]).flatMap((id) => {
        const ref = refs.get(id);
        return ref ? [ref] : [];
      }),
      resolved: r.resolved === 1,
      created_at: r.created_at,
      updated_at: r.updated_at,
    }));
  }

  async function one(id: string): Promise<CommentRecord> {
    const row = await commentsTable.findCommentView(db, id);
    if (!row) throw notFound('Comment');
    return (await present([row]))[0]!;
  }

  /** The workspace's members among the mentioned handles, as user ids. */
  async function resolveMentions(workspace: WorkspaceRow, markdown: string): Promise<string[]> {
    const handles = parseMentions(markdown);
    if (handles.length === 0) return [];
    const members: string[] = [];
    for (const userId of await commentsTable.findUserIdsByHandles(db, handles))
      if (await effectiveRole(db, workspace, userId)) members.push(userId);
    return members;
  }

  /** The page at `path` (or moved from it) that the caller may see; 404 otherwise. */
  async function findPage(workspace: WorkspaceRow, role: Role, path: string) {
    const canonical = normalizePagePath(path);
    const page =
      (await pagesTable.findByPath(db, workspace.id, canonical)) ??
      (await pagesTable.findMovedFrom(db, workspace.id, canonical));
    // Strict-mode pages with invalid frontmatter are for admins only.
    if (!page || (page.restricted === 1 && !atLeast(role, 'admin'))) throw notFound('Page');
    return page;
  }

  /** Loads a comment and checks `need` in its workspace (404 when the caller cannot read it). */
  async function authorizeOn(actor: Actor, id: string, need: Requirement) {
    const row = await commentsTable.findComment(db, id);
    if (!row) throw notFound('Comment');
    const { workspace, role } = await deps.access.require(actor, row.workspace_id, need);
    const page = await pagesTable.findByIdAnywhere(db, row.page_id);
    if (!page || (page.restricted === 1 && !atLeast(role, 'admin'))) throw notFound('Comment');
    return { row, workspace, role, path: page.path };
  }

  async function setResolved(actor: Actor, id: string, resolved: boolean): Promise<CommentRecord> {
    const { row, workspace, path } = await authorizeOn(actor, id, CAN.edit);
    // Resolution belongs to the thread, so resolving a reply resolves its root.
    const rootId = row.parent_id ?? row.id;
    const now = deps.clock.now().toISOString();
    await db.transaction().execute(async (trx) => {
      await commentsTable.setResolution(trx, rootId, {
        resolved: resolved ? 1 : 0,
        resolved_by: resolved ? actor.userId : null,
        resolved_at: resolved ? now : null,
      });
      await record(trx, {
        workspaceId: workspace.id,
        action: resolved ? 'comment_resolved' : 'comment_reopened',
        path,
        pageId: row.page_id,
        actorId: actor.userId,
        details: { comment_id: rootId },
        at: now,
      });
    });
    changed(workspace.id, path, rootId, actor, resolved ? 'resolved' : 'reopened');
    return one(rootId);
  }

  return {
    /**
     * Threads of one page (`page`, a path) or of the whole workspace, oldest
     * first, `limit` threads at a time; `next_cursor` is the last thread's id.
     */
    async list(actor: Actor, workspaceId: string, input: z.infer<typeof listCommentsInput>) {
      const { workspace, role } = await deps.access.require(actor, workspaceId, CAN.read);
      const pageId = input.page ? (await findPage(workspace, role, input.page)).id : undefined;
      // One more than asked tells whether more threads follow.
      const roots = await commentsTable.listThreadRoots(db, workspace.id, {
        ...(pageId !== undefined ? { pageId } : {}),
        unrestrictedOnly: !atLeast(role, 'admin'),
        after: input.cursor,
        limit: input.limit + 1,
      });
      const shown = roots.slice(0, input.limit);
      const replies = await commentsTable.listReplies(
        db,
        shown.map((r) => r.id),
      );
      const records = await present([...shown, ...replies]);
      const threads: CommentThread[] = records.slice(0, shown.length).map((root) => ({
        ...root,
        replies: records.slice(shown.length).filter((r) => r.parent_id === root.id),
      }));
      return {
        data: threads,
        next_cursor: roots.length > input.limit ? (shown[shown.length - 1]?.id ?? null) : null,
      };
    },

    /**
     * Adds a comment to an existing page, or a reply to a thread on it (a
     * reply to a reply joins the same thread). Mentions of workspace members
     * are resolved; other `@words` stay plain text.
     */
    async create(actor: Actor, workspaceId: string, input: z.infer<typeof createCommentInput>) {
      const { workspace, role } = await deps.access.require(actor, workspaceId, CAN.comment);
      const page = await findPage(workspace, role, input.page);
      let parentId: string | null = null;
      if (input.parent_id) {
        const parent = await commentsTable.findCommentInWorkspace(db, workspace.id, input.parent_id);
        if (!parent || parent.page_id !== page.id) {
          throw invalid('parent_id', 'parent_id must be a comment on the same page');
        }
        parentId = parent.parent_id ?? parent.id;
      }
      const mentions = await resolveMentions(workspace, input.body);
      const now = deps.clock.now().toISOString();
      const id = ulid();
      await db.transaction().execute(async (trx) => {
        await commentsTable.insertComment(trx, {
          id,
          workspace_id: workspace.id,
          page_id: page.id,
          parent_id: parentId,
          author_id: actor.userId,
          body: input.body,
          mentions: JSON.stringify(mentions),
          resolved: 0,
          resolved_by: null,
          resolved_at: null,
          created_at: now,
          updated_at: now,
        });
        await record(trx, {
          workspaceId: workspace.id,
          action: 'comment_created',
          path: page.path,
          pageId: page.id,
          actorId: actor.userId,
          details: { comment_id: id, parent_id: parentId, mentions },
          at: now,
        });
      });
      changed(workspace.id, page.path, id, actor, 'created');
      return one(id);
    },

    /** Edits the body of the caller's own comment (403 for anyone else's). */
    async update(actor: Actor, id: string, input: z.infer<typeof updateCommentInput>) {
      const { row, workspace, path } = await authorizeOn(actor, id, CAN.comment);
      if (row.author_id !== actor.userId) throw forbidden('Only the author can edit a comment');
      const mentions = await resolveMentions(workspace, input.body);
      await commentsTable.updateBody(db, id, {
        body: input.body,
        mentions: JSON.stringify(mentions),
        updated_at: deps.clock.now().toISOString(),
      });
      changed(workspace.id, path, id, actor, 'updated');
      return one(id);
    },

    /** Deletes a comment (its author, or an admin); deleting a thread's root deletes its replies. */
    async remove(actor: Actor, id: string): Promise<void> {
      const { row, role, workspace, path } = await authorizeOn(actor, id, CAN.deleteOwnComment);
      if (row.author_id !== actor.userId && !atLeast(role, 'admin')) {
        throw forbidden('Only the author or an admin can delete a comment');
      }
      await commentsTable.deleteWithReplies(db, id);
      changed(workspace.id, path, id, actor, 'deleted');
    },

    /** Marks the comment's thread resolved (editor or higher). */
    resolve: (actor: Actor, id: string) => setResolved(actor, id, true),

    /** Reopens the comment's thread (editor or higher). */
    unresolve: (actor: Actor, id: string) => setResolved(actor, id, false),
  };
}
