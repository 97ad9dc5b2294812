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

/** A string longer than this is summarized by its length. */
const MAX_SHOWN = 40;
/** Fields a summary names; the rest are counted. */
const MAX_FIELDS = 4;

function describeField(key: string, value: Json): string {
  if (Array.isArray(value)) return `${key}: ${value.length} ${value.length === 1 ? 'item' : 'items'}`;
  if (value !== null && typeof value === 'object') return `${key}: {…}`;
  if (typeof value === 'string' && value.length > MAX_SHOWN) return `${key}: ${value.length} characters`;
  return `${key}: ${JSON.stringify(value)}`;
}

/**
 * One short line saying what a result holds (its first fields, lists by their length),
 * for the text content beside the structured content, which carries the result itself.
 */
export function summarize(title: string, result: Record<string, Json>): string {
  const entries = Object.entries(result);
  const shown = entries.slice(0, MAX_FIELDS).map(([key, value]) => describeField(key, value));
  const more = entries.length - shown.length;
  if (more > 0) shown.push(`${more} more ${more === 1 ? 'field' : 'fields'}`);
  return `${title}: ${shown.join('; ') || 'done'}.`;
}

/**
 * Turns a tool's outcome into an MCP result, the data sent once: the compact value as
 * structured content with a one-line summary as text, or, for a failure, `isError`
 * with SPEC.md's error body `{ error, message, details? }` and the message as text.
 */
export function toCallResult(
  title: string,
  outcome: { ok: true; value: unknown } | { ok: false; error: unknown },
): CallToolResult {
  if (outcome.ok) {
    const structured = compactForAgents(outcome.value);
    return { content: [{ type: 'text', text: summarize(title, structured) }], structuredContent: structured };
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
