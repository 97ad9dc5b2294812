import { z } from 'zod';
import { listActivityInput } from '../../services/activity.js';
import { createCommentInput, listCommentsInput } from '../../services/collab/index.js';
import { updateSettingsInput } from '../../services/workspaces/index.js';
import { THEME_NAMES } from '../../render/themes.js';
import { defineTool, noArgs } from '../tool.js';

/** Activity, comments and theme: the same services as the HTTP routes. */
export const collaborationTools = [
  defineTool({
    name: 'get_activity',
    title: 'Get recent activity',
    description:
      'The workspace activity feed, newest first: page creations, updates, moves and deletions, comments, syncs ' +
      'and more, each with its actor and time. Filter with `action` (e.g. "page_updated"). Returns { data, ' +
      'next_cursor }.',
    input: listActivityInput,
    scope: 'workspace',
    op: 'read',
    run: (ctx, args) => ctx.services.activity.list(ctx.actor, ctx.workspace, args),
  }),
  defineTool({
    name: 'list_comments',
    title: 'List comments',
    description:
      'Comment threads of the workspace, or of one page when `page` is given, with replies, mentions and ' +
      'whether each thread is resolved. Returns { data, next_cursor }.',
    input: listCommentsInput,
    scope: 'workspace',
    op: 'read',
    run: (ctx, args) => ctx.services.comments.list(ctx.actor, ctx.workspace, args),
  }),
  defineTool({
    name: 'add_comment',
    title: 'Add a comment',
    description:
      'Adds a comment to a page, or a reply to a thread with `parent_id`. Markdown is allowed; @handle mentions ' +
      'notify members. Needs the commenter role or higher. Returns the comment.',
    input: createCommentInput,
    scope: 'workspace',
    op: 'write',
    run: (ctx, args) => ctx.services.comments.create(ctx.actor, ctx.workspace, args),
  }),
  defineTool({
    name: 'get_theme',
    title: 'Get the site theme',
    description: `The published site's theme, one of ${THEME_NAMES.join(', ')}. Needs the admin role. Returns { theme, available }.`,
    input: noArgs,
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
    input: z.object({ theme: updateSettingsInput.shape.theme.unwrap() }),
    scope: 'workspace',
    op: 'write',
    async run(ctx, { theme }) {
      const settings = await ctx.services.settings.update(ctx.actor, ctx.workspace, { theme });
      return { theme: settings.theme };
    },
  }),
];
