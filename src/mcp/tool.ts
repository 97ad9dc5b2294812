import { z } from 'zod';
import type { Actor } from '../domain/actor.js';
import type { Operation } from '../domain/policy.js';
import type { Services } from '../services/index.js';

/** What a tool body receives: the caller, the services, and the workspace it acts on. */
export interface ToolContext {
  actor: Actor;
  services: Services;
  /** The workspace slug: fixed by `folio mcp --workspace`, else the `workspace` argument. */
  workspace: string;
  /** PUBLIC_URL, for links in results. */
  publicUrl: string;
}

type Shape = Record<string, z.ZodType>;

/**
 * One MCP tool. `name` is without the `svc_` prefix. A workspace tool gets a
 * `workspace` argument added when the server serves many workspaces.
 */
export interface ToolDefinition<S extends Shape = Shape> {
  name: string;
  title: string;
  /** Written for a model: what it does, when to use it, what it returns. */
  description: string;
  input: S;
  /** Whether the tool acts inside one workspace. */
  scope: 'workspace' | 'global';
  /** The kind of operation, for rate limiting (reads and writes have their own buckets). */
  op: Operation;
  /** Offered only when the server runs a sync engine (a server URL is configured). */
  needsSync?: boolean;
  run(ctx: ToolContext, args: z.infer<z.ZodObject<S>>): Promise<unknown>;
}

/** Declares a tool with its argument types inferred from its input shape. */
export function defineTool<S extends Shape>(tool: ToolDefinition<S>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

/** The `limit` and `cursor` arguments of a list tool (SPEC.md 4.9's pagination). */
export function pageArgs(what: string, defaultLimit: number) {
  return {
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe(`Most ${what} to return (default ${defaultLimit}).`),
    cursor: z.string().optional().describe('next_cursor from a previous call, for the next page.'),
  };
}
