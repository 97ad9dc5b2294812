import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../errors.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Whether a value says nothing: null, an empty string, an empty list or an empty object. */
const isEmpty = (value: Json): boolean =>
  value === null ||
  value === '' ||
  (Array.isArray(value) ? value.length === 0 : typeof value === 'object' && Object.keys(value).length === 0);

function prune(value: Json): Json {
  if (Array.isArray(value)) return value.map(prune);
  if (value === null || typeof value !== 'object') return value;
  const kept: { [key: string]: Json } = {};
  for (const [key, field] of Object.entries(value)) {
    const pruned = prune(field);
    if (!isEmpty(pruned)) kept[key] = pruned;
  }
  return kept;
}

/**
 * A tool's value as an agent gets it: plain JSON (dates as strings) with every field
 * that says nothing left out, at any depth (`null`, `""`, `[]`, `{}`: a tree leaf has no
 * `children`, a page without a description no `description`). A value that is not
 * an object is wrapped as `{ result }`.
 */
export function compactForAgents(value: unknown): Record<string, Json> {
  const json = JSON.parse(JSON.stringify(value ?? null)) as Json;
  const object = json !== null && typeof json === 'object' && !Array.isArray(json) ? json : { result: json };
  return prune(object) as Record<string, Json>;
}

/**
 * Turns a tool's outcome into an MCP result: the compact value as structured content,
 * and the same compact JSON as text, because the MCP specification asks tools that
 * return structured content to serialise it as text too, for the many clients that
 * show the model only text. A failure is `isError` with the API's error body
 * `{ error, message, details? }` and its message as text.
 */
export function toCallResult(
  outcome: { ok: true; value: unknown } | { ok: false; error: unknown },
): CallToolResult {
  if (outcome.ok) {
    const structured = compactForAgents(outcome.value);
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  }
  const error =
    outcome.error instanceof AppError
      ? outcome.error
      : new AppError('INTERNAL_ERROR', 'An internal error occurred');
  const body = compactForAgents({ error: error.code, message: error.message, details: error.details });
  return {
    content: [{ type: 'text', text: `${error.code}: ${error.message}` }],
    structuredContent: body,
    isError: true,
  };
}
