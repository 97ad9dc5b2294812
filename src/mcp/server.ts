import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Actor } from '../domain/actor.js';
import { AppError } from '../errors.js';
import { rateBucketFor } from '../ratelimit/buckets.js';
import type { OrgQuota } from '../ratelimit/org-limits.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services/index.js';
import { VERSION } from '../version.js';
import { toCallResult } from './result.js';
import { argsFirst, type ToolDefinition } from './tool.js';
import { ALL_TOOLS } from './tools/index.js';
import type { Metrics } from '../metrics/metrics.js';

export const TOOL_PREFIX = 'svc_';

/** What the composition root hands the MCP adapter besides the services. */
export interface McpEnvironment {
  /** Counts each tool call against the organization's read or write bucket, at its own limit. */
  quota: OrgQuota;
  logger: Logger;
  /** PUBLIC_URL, for the links tools answer with. */
  publicUrl: string;
  /** Counts tool calls by tool and result (the stdio server has none). */
  metrics?: Pick<Metrics, 'mcpToolCalls'>;
}

export interface McpServerOptions extends McpEnvironment {
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

/**
 * Every tool answers a JSON object, described field by field in its description; declaring
 * that much tells clients the result is the structured content, with the text a summary.
 */
const anyObject = z.looseObject({});

const workspaceArg = z
  .string()
  .min(1)
  .describe('The workspace slug (as listed by svc_list_workspaces), e.g. "acme-docs".');

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
    const inputSchema = multiWorkspace ? argsFirst({ workspace: workspaceArg }, tool.input) : tool.input;
    server.registerTool(
      TOOL_PREFIX + tool.name,
      { title: tool.title, description: tool.description, inputSchema, outputSchema: anyObject },
      async (args: Record<string, unknown>) => {
        try {
          const bucket = rateBucketFor(tool.op);
          const allowed = await options.quota(bucket, actor.orgId);
          if (!allowed) throw new AppError('RATE_LIMITED', 'Too many requests; try again later');
          const workspace =
            options.fixedWorkspace ?? (typeof args.workspace === 'string' ? args.workspace : '');
          const { workspace: _omit, ...rest } = args;
          const value = await tool.run(
            { actor, services, workspace, publicUrl: options.publicUrl },
            multiWorkspace ? rest : args,
          );
          options.metrics?.mcpToolCalls.inc({ tool: tool.name, result: 'ok' });
          return toCallResult({ ok: true, value });
        } catch (error) {
          const code = error instanceof AppError ? error.code.toLowerCase() : 'error';
          options.metrics?.mcpToolCalls.inc({ tool: tool.name, result: code });
          if (!(error instanceof AppError))
            options.logger.error({ err: error, tool: tool.name }, 'MCP tool failed');
          return toCallResult({ ok: false, error });
        }
      },
    );
  }
  return server;
}
