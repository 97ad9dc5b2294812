import { z } from 'zod';
import { createPageFields, movePageInput, updatePageFields } from '../../services/pages/index.js';
import { defineTool } from '../tool.js';

/** The page a tool acts on: the HTTP routes take it from the URL. */
const pagePath = z
  .string()
  .min(1)
  .describe(
    'Page path inside the workspace, e.g. "guides/setup.md" (".md" may be omitted; ".mdx" pages keep it).',
  );

/**
 * Tools name the Markdown body `content`, as svc_read_page answers it (HTTP takes `body`
 * too), and the hash `last_known_hash`, in the snake_case of every tool argument.
 */
const { title, content, description, tags, publish } = createPageFields.shape;
const { content: newContent, lastKnownHash, frontmatter } = updatePageFields.shape;

/** The MCP content tools: the same page service the HTTP content routes call. */
export const contentTools = [
  defineTool({
    name: 'list_pages',
    title: 'List pages',
    description:
      'Lists the pages of the workspace (path, title, description, tags, status, content_hash), sorted by path. ' +
      'Use it to see what exists before reading or writing. Give `folder` to list one folder; `recursive: false` ' +
      'lists only its direct pages. Returns { folder, pages, count }.',
    input: z.object({
      folder: z
        .string()
        .optional()
        .describe('Folder to list, e.g. "guides"; the whole workspace when omitted.'),
      recursive: z.boolean().optional().describe('Include sub-folders (default true).'),
    }),
    scope: 'workspace',
    op: 'read',
    run: (ctx, args) => ctx.services.discovery.list(ctx.actor, ctx.workspace, args),
  }),
  defineTool({
    name: 'read_page',
    title: 'Read a page',
    description:
      'Reads one page: its Markdown `content`, `title`, `description`, `tags`, `status`, `page_id` and ' +
      '`content_hash`. Keep the content_hash: svc_update_page needs it as `last_known_hash`.',
    input: z.object({ path: pagePath }),
    scope: 'workspace',
    op: 'read',
    run: (ctx, args) => ctx.services.pages.read(ctx.actor, ctx.workspace, args.path),
  }),
  defineTool({
    name: 'write_page',
    title: 'Create or replace a page',
    description:
      'Writes a page whether or not it exists (upsert): creates it at `path`, or, when a page is already there, ' +
      'replaces its content with yours (and title, description, tags when given). Use svc_update_page instead ' +
      'when you edited text you read, so a concurrent change is not overwritten. Returns the page and `created`.',
    input: z.object({ path: pagePath, title, content: content.unwrap(), description, tags, publish }),
    scope: 'workspace',
    op: 'write',
    run: (ctx, { path, content, ...page }) =>
      ctx.services.pages.upsert(ctx.actor, ctx.workspace, path, { ...page, body: content }),
  }),
  defineTool({
    name: 'update_page',
    title: 'Update a page safely',
    description:
      'Replaces the content of an existing page only if it has not changed since you read it: pass the ' +
      '`content_hash` from svc_read_page as `last_known_hash`. If someone changed it meanwhile the call fails ' +
      'with CONFLICT carrying `current_hash`; read the page again, merge, and retry. `frontmatter` may change ' +
      'title, description, tags or status. Returns the updated page.',
    input: z.object({
      path: pagePath,
      content: newContent,
      last_known_hash: lastKnownHash.unwrap(),
      frontmatter,
    }),
    scope: 'workspace',
    op: 'write',
    async run(ctx, { path, content, last_known_hash, frontmatter }) {
      const input = { body: content, lastKnownHash: last_known_hash, frontmatter };
      return (await ctx.services.pages.update(ctx.actor, ctx.workspace, path, input)).page;
    },
  }),
  defineTool({
    name: 'delete_page',
    title: 'Delete a page (recoverable)',
    description:
      'Deletes a page softly: its file is kept in the workspace trash (.folio/trash) and in git history, so the ' +
      'deletion can be undone by an administrator. Returns { deleted, page_id, path, recoverable_from }.',
    input: z.object({ path: pagePath }),
    scope: 'workspace',
    op: 'delete',
    run: (ctx, args) => ctx.services.trash.trash(ctx.actor, ctx.workspace, args.path),
  }),
  defineTool({
    name: 'move_page',
    title: 'Move or rename a page',
    description:
      'Moves a page to `new_path`, keeping its page_id and comments; [[wikilinks]] and relative links to it in ' +
      'other pages are rewritten, and the old URL redirects. Returns the moved page.',
    input: z.object({ path: pagePath, new_path: movePageInput.shape.new_path }),
    scope: 'workspace',
    op: 'write',
    run: (ctx, args) => ctx.services.pages.move(ctx.actor, ctx.workspace, args.path, args.new_path),
  }),
];
