import type { FastifyRequest } from 'fastify';
import http from 'node:http';
import type { AppError } from '../../errors.js';
import { requestedLayout } from './layout.js';

/** How one error is written: its media type and body. */
export interface ErrorPresentation {
  contentType: string;
  body: Record<string, unknown>;
}

const PROBLEM_JSON = 'application/problem+json';

/** Whether the client lists `application/problem+json` among the types it accepts. */
function wantsProblemJson(request: Pick<FastifyRequest, 'headers'>): boolean {
  return String(request.headers.accept ?? '')
    .toLowerCase()
    .split(',')
    .some((part) => part.split(';')[0]?.trim() === PROBLEM_JSON);
}

/** Layout B's names for the codes it spelt differently. */
const LAYOUT_B_CODES: Partial<Record<string, string>> = { CONFLICT: 'CONFLICT_DETECTED' };
/** Layout C's names: its 400 was BAD_REQUEST. */
const LAYOUT_C_CODES: Partial<Record<string, string>> = { VALIDATION_ERROR: 'BAD_REQUEST' };

type Issue = { field: string; message: string };

/**
 * RFC 7807's problem details: `type` names the code (a URN, so it needs no network), `title`
 * the HTTP status, `detail` the message; `fields` lists the invalid fields of a validation
 * failure. `code` and `request_id` are extension members so nothing of the current error body is lost.
 */
function problem(request: Pick<FastifyRequest, 'id'>, error: AppError, code: string) {
  const details = error.details ?? {};
  const issues = Array.isArray(details.issues) ? (details.issues as Issue[]) : undefined;
  const fields =
    error.code === 'VALIDATION_ERROR'
      ? (issues ??
        (typeof details.field === 'string' ? [{ field: details.field, message: error.message }] : []))
      : undefined;
  return {
    type: `urn:folio:error:${code.toLowerCase()}`,
    title: http.STATUS_CODES[error.status] ?? 'Error',
    status: error.status,
    detail: error.message,
    ...(fields ? { fields } : {}),
    ...(error.extra ?? {}),
    code,
    request_id: request.id,
  };
}

/** Layout C's nested error: `{ error: { code, message, details } }`, a stale hash as `provided_hash`. */
function nested(error: AppError) {
  const details: Record<string, unknown> = { ...(error.details ?? {}) };
  if ('your_hash' in details) {
    details.provided_hash = details.your_hash;
    delete details.your_hash;
  }
  const code = LAYOUT_C_CODES[error.code] ?? error.code;
  return { error: { code, message: error.message, details } };
}

/**
 * The error body in the shape the client chose (docs/compatibility.md): RFC 7807 with
 * `Accept: application/problem+json` (Layout B's errors), Layout C's nested object with
 * `Folio-Layout: C`, else null for the current error body.
 */
export function olderErrorShape(
  request: Pick<FastifyRequest, 'id' | 'headers'>,
  error: AppError,
): ErrorPresentation | null {
  const layout = requestedLayout(request);
  if (wantsProblemJson(request) || layout === 'B') {
    const code = layout === 'B' ? (LAYOUT_B_CODES[error.code] ?? error.code) : error.code;
    return { contentType: `${PROBLEM_JSON}; charset=utf-8`, body: problem(request, error, code) };
  }
  if (layout === 'C') return { contentType: 'application/json; charset=utf-8', body: nested(error) };
  return null;
}
