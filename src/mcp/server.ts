import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Actor } from '../domain/actor.js';
import { AppError } from '../errors.js';
import { orgRateKey, rateBucketFor } from '../ratelimit/buckets.js';
import type { Services } from '../services/index.js';
import { VERSION } from '../version.js';
import type { ToolDefinition } from './tool.js';
import { ALL_TOOLS } from './tools/index.js';

export const TOOL_PREFIX = 'svc_';

export interface McpServerOptions {
  services: Services;
  actor: Actor;
  /** Fixes every tool to one workspace (stdio); otherwise tools take a `workspace` argument. */
  fixedWorkspace?: string;
  /** Whether `svc_resolve_sync_conflict` is offered (a sync engine runs behind this server). */
  offerSync: boolean;
}

/** The tools this server offers, in their final shape. */
export function offeredTools(options: Pick<McpServerOptions, 'offerSync'>): ToolDefinition[] {
  return ALL_TOOLS.filter((tool) => options.offerSync || !tool.needsSync);
}

const workspaceArg = z
  .string()
  .min(1)
  .describe('The workspace slug (as listed by svc_list_workspaces), e.g. "acme-docs".');

/** Turns a tool's result or failure into an MCP result: JSON text plus structuredContent, or isError. */
export function toCallResult(
  outcome: { ok: true; value: unknown } | { ok: false; error: unknown },
): CallToolResult {
  if (outcome.ok) {
    const structured =
      outcome.value && typeof outcome.value === 'object' && !Array.isArray(outcome.value)
        ? (outcome.value as Record<string, unknown>)
        : { result: outcome.value ?? null };
    return {
      content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }],
      structuredContent: structured,
    };
  }
  const error =
    outcome.error instanceof AppError
      ? outcome.error
      : new AppError('INTERNAL_ERROR', 'An internal error occurred');
  const body = {
    error: error.code,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
  };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true };
}

/**
 * An MCP server whose tools call the same service methods as the HTTP routes,
 * as the same actor, so permissions and results match whichever door is used.
 */
export function buildMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: 'folio', version: VERSION },
    { instructions: 'Folio documentation workspaces: read, search, write and publish Markdown pages.' },
  );
  const { services, actor } = options;
  for (const tool of offeredTools(options)) {
    const multiWorkspace = tool.scope === 'workspace' && !options.fixedWorkspace;
    const inputSchema = multiWorkspace ? { workspace: workspaceArg, ...tool.input } : tool.input;
    server.registerTool(
      TOOL_PREFIX + tool.name,
      { title: tool.title, description: tool.description, inputSchema },
      async (args: Record<string, unknown>) => {
        try {
          const bucket = rateBucketFor(tool.op);
          const allowed = await services.deps.quota(bucket, orgRateKey(bucket, actor.orgId));
          if (!allowed) throw new AppError('RATE_LIMITED', 'Too many requests; try again later');
          const workspace =
            options.fixedWorkspace ?? (typeof args.workspace === 'string' ? args.workspace : '');
          const { workspace: _omit, ...rest } = args;
          const value = await tool.run({ actor, services, workspace }, multiWorkspace ? rest : args);
          return toCallResult({ ok: true, value });
        } catch (error) {
          if (!(error instanceof AppError))
            services.deps.logger.error({ err: error, tool: tool.name }, 'MCP tool failed');
          return toCallResult({ ok: false, error });
        }
      },
    );
  }
  return server;
}
