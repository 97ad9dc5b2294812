/**
 * The rules of one page write, whatever tree it lands in (the live workspace or a change
 * request's branch): the path's rules, the stale-hash check, create-if-missing, the
 * frontmatter merge that keeps the author's bytes, and the frontmatter limits. Pure: the
 * caller reads the current file and writes the answer.
 */
import { AppError, conflict, invalid, notFound } from '../errors.js';
import { nextLoopTurn } from '../lib/event-loop-turn.js';
import {
  canonicalFrontmatter,
  contentHash,
  countsMoreKeysThan,
  FRONTMATTER_LIMITS_MESSAGE,
  frontmatterBlockBytes,
  frontmatterHash,
  MAX_FRONTMATTER_BYTES,
  MAX_FRONTMATTER_KEYS,
  type ParsedPageFile,
  parsePageFile,
  serializePageFile,
} from './frontmatter.js';
import { patchFrontmatterText } from './frontmatter-patch.js';
import { normalizePagePath, stripPageExtension } from './paths.js';

/** A page file as it is on disk: its bytes (as UTF-8 text) and their split into frontmatter and body. */
export type CurrentPageFile = ParsedPageFile & { text: string };

/** What a write asks for. */
export type PageWriteRequest =
  /** POST: a new page with these frontmatter fields; refused when a file is at the path. */
  | { kind: 'create'; fields: Record<string, unknown>; body: string }
  /**
   * PUT: replaces the body (when given) and merges `frontmatter` into the page's (`null`
   * removes a key). An existing page needs `lastKnownHash` equal to its content hash; a
   * missing page with no `lastKnownHash` is created.
   */
  | {
      kind: 'update';
      body: string | undefined;
      lastKnownHash: string | undefined;
      frontmatter: Record<string, unknown> | undefined;
    };

/** What the target knows about the page besides its file. */
export interface PageWriteContext {
  /** The page's path in the workspace (checked again: reserved names, length, characters). */
  path: string;
  /** The id a page this write creates gets (the caller's fresh id, or a restored page's own). */
  newId: string;
  /** The id an existing page keeps (its index row's, or its file's own); none when unknown. */
  pageId: string | undefined;
  /** The frontmatter a file whose YAML is broken is taken to have (its last good one, or none). */
  lastGood: Record<string, unknown>;
  /** Who changed the page last, for the stale-hash answer; omitted where unknown. */
  lastChange?: { modified_by: string | null; modified_at: string };
}

/** The new bytes of the page, or that the write changes nothing. */
export type PageWriteResult =
  | { kind: 'unchanged' }
  | {
      kind: 'created' | 'updated';
      /** The file's whole new text. */
      text: string;
      /** Its frontmatter (what a parse of `text` answers, up to key order). */
      frontmatter: Record<string, unknown>;
      body: string;
    };

/**
 * Applies `request` to the page whose file is `current` (null: no file at the path) and
 * answers the file's new text, or throws the AppError that refuses it: 400 for a bad path,
 * a set or changed `id`, a missing `lastKnownHash` or frontmatter over the limits; 404 for
 * an update naming a hash of a page that is not there; 409 for a create over an existing
 * file or a stale hash. An update keeps the author's frontmatter text byte for byte (line
 * endings, byte-order mark, comments, key order) and patches only the keys it names.
 *
 * The limits are checked on the YAML written, the text every later read of the file
 * parses, so a write never leaves a file its reads refuse. Patching frontmatter near the
 * limits is tens of milliseconds of YAML per pass: the passes run in turns of their own.
 */
export async function planPageWrite(
  current: CurrentPageFile | null,
  request: PageWriteRequest,
  context: PageWriteContext,
): Promise<PageWriteResult> {
  const result = await plan(current, request, context);
  if (result.kind !== 'unchanged' && frontmatterBlockBytes(result.text) > MAX_FRONTMATTER_BYTES) {
    throw frontmatterTooLarge();
  }
  return result;
}

async function plan(
  current: CurrentPageFile | null,
  request: PageWriteRequest,
  context: PageWriteContext,
): Promise<PageWriteResult> {
  const path = normalizePagePath(context.path);
  if (request.kind === 'create') {
    if (current) {
      throw new AppError('CONFLICT', `A page already exists at ${path}`, {
        details: { path, page_id: context.pageId ?? null },
      });
    }
    return created(request.fields, request.body, context.newId);
  }
  if (!current) {
    if (request.lastKnownHash !== undefined) throw notFound('Page');
    const fields = mergeFrontmatter(undefined, {}, request.frontmatter);
    fields.title ??= titleFromPath(path);
    fields.status ??= 'draft';
    return created(fields, request.body ?? '', context.newId);
  }
  if (request.lastKnownHash === undefined) {
    throw invalid(
      'lastKnownHash',
      'lastKnownHash is required to update an existing page; send its content_hash',
    );
  }
  const currentHash = contentHash(current.body);
  if (request.lastKnownHash !== currentHash) {
    throw conflict('The page was changed since you read it', {
      current_hash: currentHash,
      your_hash: request.lastKnownHash,
      ...context.lastChange,
    });
  }
  const broken = current.error !== undefined;
  const merged = mergeFrontmatter(
    context.pageId,
    broken ? context.lastGood : current.frontmatter,
    request.frontmatter,
  );
  const body = request.body ?? current.body;
  const mergedHash = frontmatterHash(merged);
  if (!broken && body === current.body && mergedHash === frontmatterHash(current.frontmatter)) {
    return { kind: 'unchanged' };
  }
  const kept = broken ? null : await authorText(current, request.frontmatter, mergedHash);
  const text =
    kept !== null ? replaceBody({ text: kept, body: current.body }, body) : serializePageFile(merged, body);
  return { kind: 'updated', text, frontmatter: merged, body };
}

function created(fields: Record<string, unknown>, body: string, id: string): PageWriteResult {
  const frontmatter = canonicalFrontmatter({ ...fields, id });
  return { kind: 'created', text: serializePageFile(frontmatter, body), frontmatter, body };
}

/**
 * The file's text with `patch` applied to the author's own frontmatter, or null when it
 * must be written out canonically instead (no frontmatter block, or a patched text that
 * would not read back as `merged`).
 */
async function authorText(
  file: CurrentPageFile,
  patch: Record<string, unknown> | undefined,
  mergedHash: string,
): Promise<string | null> {
  if (patch === undefined) return file.text;
  const text = patchFrontmatterText(file.text, patch, file.frontmatter);
  if (text === null) return null;
  // Patching parsed and wrote the YAML; reading it back is another pass over it.
  if (frontmatterBlockBytes(text) > LARGE_YAML_BYTES) await nextLoopTurn();
  const reread = parsePageFile(text);
  return reread.error === undefined && frontmatterHash(reread.frontmatter) === mergedHash ? text : null;
}

/** YAML above this many bytes takes long enough to parse that its passes get turns of their own. */
const LARGE_YAML_BYTES = 2 * 1024;

/** `file`'s text with its body replaced, its frontmatter bytes (and byte-order mark) untouched. */
export function replaceBody(file: { text: string; body: string }, body: string): string {
  return file.text.slice(0, file.text.length - file.body.length) + body;
}

/** The title a page gets from its path when none is given: `guides/getting-started.md` -> "Getting started". */
export function titleFromPath(pagePath: string): string {
  const stem = stripPageExtension(pagePath.split('/').pop() ?? pagePath);
  const words = stem.replace(/[-_]+/g, ' ').trim() || stem;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The 400 for frontmatter over the limits, naming them in its message and details. */
function frontmatterTooLarge(): AppError {
  return new AppError('VALIDATION_ERROR', FRONTMATTER_LIMITS_MESSAGE, {
    details: { field: 'frontmatter', max_keys: MAX_FRONTMATTER_KEYS, max_bytes: MAX_FRONTMATTER_BYTES },
  });
}

/**
 * `base` with `patch` applied: `null` removes a key; `id` stays `pageId` (absent for a new
 * page) and cannot be set or changed. 400 when the result holds more keys than the limit,
 * or more JSON than its YAML could fit in: refused before any YAML is made of it (the
 * YAML's own size is checked on the text written, see `planPageWrite`).
 */
export function mergeFrontmatter(
  pageId: string | undefined,
  base: Record<string, unknown>,
  patch: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (key === 'id') {
      if (value !== undefined && value !== pageId) {
        throw invalid('frontmatter.id', 'Folio assigns page ids; an id cannot be set or changed');
      }
      continue;
    }
    if (key === '__proto__') continue;
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  if (pageId !== undefined) merged.id = pageId;
  else delete merged.id;
  if (
    countsMoreKeysThan(merged, MAX_FRONTMATTER_KEYS) ||
    JSON.stringify(merged).length > 4 * MAX_FRONTMATTER_BYTES
  ) {
    throw frontmatterTooLarge();
  }
  return merged;
}
