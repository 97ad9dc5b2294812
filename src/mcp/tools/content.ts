import { z } from 'zod';
import { parseInput } from '../../domain/validate.js';
import { createPageInput, updatePageInput } from '../../services/pages/index.js';
import { defineTool } from '../tool.js';

const pagePath = z
  .string()
  .min(1)
  .describe('Page path inside the workspace, e.g. "guides/setup.md" (".md" may be omitted).');
const tags = z.array(z.string()).describe('Tags for the page, e.g. ["api", "howto"].');

/** SPEC.md 4.8's content tools: the same page service the HTTP content routes call. */
export const contentTools = [
  defineTool({
    name: 'list_pages',
    title: 'List pages',
    description:
      'Lists the pages of the workspace (path, title, description, tags, status, content_hash), sorted by path. ' +
      'Use it to see what exists before reading or writing. Give `folder` to list one folder; `recursive: false` ' +
      'lists only its direct pages. Returns { folder, pages, count }.',
    input: {
      folder: z
        .string()
        .optional()
        .describe('Folder to list, e.g. "guides"; the whole workspace when omitted.'),
      recursive: z.boolean().optional().describe('Include sub-folders (default true).'),
    },
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
    input: { path: pagePath },
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
    input: {
      path: pagePath,
      title: z.string().min(1).describe('The page title.'),
      content: z.string().describe('The Markdown body, without frontmatter.'),
      description: z.string().optional().describe('A one-sentence summary of the page.'),
      tags: tags.optional(),
      publish: z.boolean().optional().describe('Publish the page on the site (status "published").'),
    },
    scope: 'workspace',
    op: 'write',
    async run(ctx, args) {
      const input = parseInput(createPageInput, {
        title: args.title,
        body: args.content,
        description: args.description,
        tags: args.tags,
        publish: args.publish,
      });
      return ctx.services.pages.upsert(ctx.actor, ctx.workspace, args.path, input);
    },
  }),
  defineTool({
    name: 'update_page',
    title: 'Update a page safely',
    description:
      'Replaces the content of an existing page only if it has not changed since you read it: pass the ' +
      '`content_hash` from svc_read_page as `last_known_hash`. If someone changed it meanwhile the call fails ' +
      'with CONFLICT carrying `current_hash`; read the page again, merge, and retry. `frontmatter` may change ' +
      'title, description, tags or status. Returns the updated page.',
    input: {
      path: pagePath,
      content: z.string().optional().describe('The new Markdown body; omit to change only frontmatter.'),
      last_known_hash: z.string().min(1).describe('The content_hash you last read, e.g. "sha256:…".'),
      frontmatter: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('Frontmatter keys to change, e.g. { "title": "New title", "status": "published" }.'),
    },
    scope: 'workspace',
    op: 'write',
    async run(ctx, args) {
      const input = parseInput(updatePageInput, {
        body: args.content,
        lastKnownHash: args.last_known_hash,
        frontmatter: args.frontmatter,
      });
      const { page } = await ctx.services.pages.update(ctx.actor, ctx.workspace, args.path, input);
      return page;
    },
  }),
  defineTool({
    name: 'delete_page',
    title: 'Delete a page (recoverable)',
    description:
      'Deletes a page softly: its file is kept in the workspace trash (.folio/trash) and in git history, so the ' +
      'deletion can be undone by an administrator. Returns { deleted, page_id, path, recoverable_from }.',
    input: { path: pagePath },
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
    input: { path: pagePath, new_path: pagePath.describe('The new path, e.g. "guides/installation.md".') },
    scope: 'workspace',
    op: 'write',
    run: (ctx, args) => ctx.services.pages.move(ctx.actor, ctx.workspace, args.path, args.new_path),
  }),
];
