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

/**
 * One MCP tool. `name` is without the `svc_` prefix. A workspace tool gets a
 * `workspace` argument added when the server serves many workspaces.
 */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** Written for a model: what it does, when to use it, what it returns. */
  description: string;
  /**
   * The arguments, built from the schemas the services export (their `.describe()` texts
   * are what a model reads); only what differs from the HTTP input on purpose is declared
   * here. The SDK validates a call against it, so `run` gets parsed arguments.
   */
  input: I;
  /** Whether the tool acts inside one workspace. */
  scope: 'workspace' | 'global';
  /** The kind of operation, for rate limiting (reads and writes have their own buckets). */
  op: Operation;
  /** Offered only when the server runs a sync engine (a server URL is configured). */
  needsSync?: boolean;
  run(ctx: ToolContext, args: z.output<I>): Promise<unknown>;
}

/** Declares a tool with its argument types inferred from its input schema. */
export function defineTool<I extends z.ZodObject>(tool: ToolDefinition<I>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

/** The input of a tool that takes no arguments (besides `workspace`). */
export const noArgs = z.object({});

/**
 * `input` with the arguments of `first` listed before its own. Its checks across fields
 * (such as "give one of the two") are kept, which spreading `input.shape` would lose.
 */
export function argsFirst<F extends z.ZodRawShape, S extends z.ZodRawShape>(first: F, input: z.ZodObject<S>) {
  const merged = z.object(first).extend(input.shape) as z.ZodObject<z.core.util.Extend<F, S>>;
  // The checks were written for `input`'s fields, which the merged object all has.
  const checks = (input._zod.def.checks ?? []) as z.core.$ZodCheck<z.output<typeof merged>>[];
  return merged.check(...checks);
}
