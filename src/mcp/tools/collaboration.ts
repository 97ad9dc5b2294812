import { z } from 'zod';
import { parseInput } from '../../domain/validate.js';
import { listActivityInput } from '../../services/activity.js';
import { createCommentInput, listCommentsInput } from '../../services/collab/index.js';
import { updateSettingsInput } from '../../services/workspaces/index.js';
import { THEME_NAMES } from '../../render/themes.js';
import { defineTool, pageArgs } from '../tool.js';

/** Activity, comments and theme: the same services as the HTTP routes. */
export const collaborationTools = [
  defineTool({
    name: 'get_activity',
    title: 'Get recent activity',
    description:
      'The workspace activity feed, newest first: page creations, updates, moves and deletions, comments, syncs ' +
      'and more, each with its actor and time. Filter with `action` (e.g. "page_updated"). Returns { data, ' +
      'next_cursor }.',
    input: {
      ...pageArgs('entries', 20),
      action: z.string().optional().describe('Only this action, or several comma-separated.'),
    },
    scope: 'workspace',
    op: 'read',
    run: (ctx, args) =>
      ctx.services.activity.list(ctx.actor, ctx.workspace, parseInput(listActivityInput, args)),
  }),
  defineTool({
    name: 'list_comments',
    title: 'List comments',
    description:
      'Comment threads of the workspace, or of one page when `page` is given, with replies, mentions and ' +
      'whether each thread is resolved. Returns { data, next_cursor }.',
    input: {
      page: z.string().optional().describe('Only comments on this page path, e.g. "guides/setup.md".'),
      ...pageArgs('threads', 50),
    },
    scope: 'workspace',
    op: 'read',
    run: (ctx, args) =>
      ctx.services.comments.list(ctx.actor, ctx.workspace, parseInput(listCommentsInput, args)),
  }),
  defineTool({
    name: 'add_comment',
    title: 'Add a comment',
    description:
      'Adds a comment to a page, or a reply to a thread with `parent_id`. Markdown is allowed; @handle mentions ' +
      'notify members. Needs the commenter role or higher. Returns the comment.',
    input: {
      page: z.string().min(1).describe('The page path the comment is about.'),
      body: z.string().min(1).describe('The comment text in Markdown.'),
      parent_id: z.string().optional().describe('The id of the comment this replies to.'),
    },
    scope: 'workspace',
    op: 'write',
    run: (ctx, args) =>
      ctx.services.comments.create(ctx.actor, ctx.workspace, parseInput(createCommentInput, args)),
  }),
  defineTool({
    name: 'get_theme',
    title: 'Get the site theme',
    description: `The published site's theme, one of ${THEME_NAMES.join(', ')}. Needs the admin role. Returns { theme, available }.`,
    input: {},
    scope: 'workspace',
    op: 'read',
    async run(ctx) {
      const settings = await ctx.services.settings.get(ctx.actor, ctx.workspace);
      return { theme: settings.theme, available: [...THEME_NAMES] };
    },
  }),
  defineTool({
    name: 'update_theme',
    title: 'Change the site theme',
    description: `Sets the published site's theme to one of ${THEME_NAMES.join(', ')}. Needs the admin role. Returns { theme }.`,
    input: { theme: z.string().describe(`One of ${THEME_NAMES.join(', ')}.`) },
    scope: 'workspace',
    op: 'write',
    async run(ctx, args) {
      const settings = await ctx.services.settings.update(
        ctx.actor,
        ctx.workspace,
        parseInput(updateSettingsInput, { theme: args.theme }),
      );
      return { theme: settings.theme };
    },
  }),
];
