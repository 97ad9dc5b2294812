import { z } from 'zod';
import { WRITING_ACTIONS } from '../../ai/prompts.js';
import { parseInput } from '../../domain/validate.js';
import { createWorkspaceInput } from '../../services/workspaces/index.js';
import { defineTool } from '../tool.js';

/** Workspace management and writing assistance. */
export const managementTools = [
  defineTool({
    name: 'create_workspace',
    title: 'Create a workspace',
    description:
      'Creates a new documentation workspace in your organization (Super Admin only). `slug` is its URL name: ' +
      'lowercase letters, digits and dashes. Returns the workspace.',
    input: {
      name: z.string().min(1).describe('Display name, e.g. "Platform docs".'),
      slug: z.string().min(1).describe('URL name, e.g. "platform-docs".'),
      git_remote: z
        .string()
        .optional()
        .describe('A git remote to sync with, e.g. "https://git.example.com/docs.git".'),
      git_branch: z.string().optional().describe('The branch to sync (default "main").'),
    },
    scope: 'global',
    op: 'write',
    run: (ctx, args) => ctx.services.workspaces.create(ctx.actor, parseInput(createWorkspaceInput, args)),
  }),
  defineTool({
    name: 'get_workspace',
    title: 'Get the workspace',
    description:
      'Details of the workspace: id, name, slug, your role, git remote and branch, sync status and whether its ' +
      'site is public. Returns the workspace.',
    input: {},
    scope: 'workspace',
    op: 'read',
    run: (ctx) => ctx.services.workspaces.get(ctx.actor, ctx.workspace),
  }),
  defineTool({
    name: 'writing_assist',
    title: 'Improve a text with AI',
    description:
      `Rewrites Markdown with the configured AI provider: action is one of ${WRITING_ACTIONS.join(', ')}; ` +
      '`translate` needs `language`. Markdown structure, code blocks, links and frontmatter are kept. Fails ' +
      'with AI_DISABLED when no provider is configured. Returns { action, result }.',
    input: {
      action: z.string().describe(`One of ${WRITING_ACTIONS.join(', ')}.`),
      content: z.string().min(1).describe('The Markdown to work on.'),
      language: z.string().optional().describe('Target language for translate, e.g. "German".'),
    },
    scope: 'workspace',
    op: 'write',
    run: (ctx, args) => ctx.services.ai.writingAssist(ctx.actor, { ...args, workspace_id: ctx.workspace }),
  }),
];
