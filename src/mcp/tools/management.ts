import { WRITING_ACTIONS, writingAssistInput } from '../../ai/prompts.js';
import { createWorkspaceInput } from '../../services/workspaces/index.js';
import { defineTool, noArgs } from '../tool.js';

/** Workspace management and writing assistance. */
export const managementTools = [
  defineTool({
    name: 'create_workspace',
    title: 'Create a workspace',
    description:
      'Creates a new documentation workspace in your organization (Super Admin only). `slug` is its URL name: ' +
      'lowercase letters, digits and dashes. Returns the workspace.',
    // The organization is the API key's: `org` is for the HTTP route's platform owners.
    input: createWorkspaceInput.omit({ org: true }),
    scope: 'global',
    op: 'write',
    run: (ctx, args) => ctx.services.workspaces.create(ctx.actor, args),
  }),
  defineTool({
    name: 'get_workspace',
    title: 'Get the workspace',
    description:
      'Details of the workspace: id, name, slug, your role, git remote and branch, sync status and whether its ' +
      'site is public. Returns the workspace.',
    input: noArgs,
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
    input: writingAssistInput,
    scope: 'workspace',
    op: 'write',
    run: (ctx, args) => ctx.services.ai.writingAssist(ctx.actor, { ...args, workspace_id: ctx.workspace }),
  }),
];
