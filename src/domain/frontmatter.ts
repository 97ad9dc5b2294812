import { createHash } from 'node:crypto';
import type * as Yaml from 'yaml';
import { LruCache } from '../lib/lru-cache.js';
import { textSlices } from '../lib/text-slices.js';
import { loadYaml } from '../lib/yaml.js';

/** The result of splitting a page file. `error` is set (and `frontmatter` is `{}`) when the YAML is invalid. */
export interface ParsedPageFile {
  frontmatter: Record<string, unknown>;
  body: string;
  error?: string;
}

/** The typed view of the frontmatter keys Folio itself understands. */
export interface PageMeta {
  id?: string;
  title?: string;
  description?: string;
  tags: string[];
  status: 'draft' | 'published';
  order?: number;
}

/** Keys written first, in this order; any other key follows alphabetically. */
export const CANONICAL_KEYS = ['id', 'title', 'description', 'tags', 'status', 'order'] as const;

// The opening fence must be the file's first line; the closing one is the next line that is
// exactly `---` (trailing blanks tolerated).
const OPEN_FENCE_RE = /^---[ \t]*\r?\n/;
const CLOSE_FENCE_RE = /^---[ \t]*(?:\r?\n|$)/gm;

/**
 * Where the frontmatter block of `src` (a file's text without its byte-order mark) is: its
 * opening fence line, its YAML, and the end of its closing fence line; null when the file
 * has no closed block.
 */
export function findFrontmatterBlock(
  src: string,
): { openEnd: number; yamlEnd: number; closeEnd: number } | null {
  const open = OPEN_FENCE_RE.exec(src);
  if (!open) return null;
  const closeRe = new RegExp(CLOSE_FENCE_RE);
  closeRe.lastIndex = open[0].length;
  const close = closeRe.exec(src);
  if (!close) return null;
  return { openEnd: open[0].length, yamlEnd: close.index, closeEnd: close.index + close[0].length };
}

/**
 * Splits a page file into YAML frontmatter and Markdown body. Never throws: invalid YAML
 * (or YAML that is not a mapping) yields `frontmatter: {}`, the body, and `error`, so the
 * caller can apply the workspace's strict or lenient mode. A file without a closed `---`
 * block is all body. One blank line after the closing fence is treated as separator
 * (`serializePageFile` writes it), so `parse(serialize(fm, body)).body === body`.
 */
export function parsePageFile(text: string): ParsedPageFile {
  const src = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const block = findFrontmatterBlock(src);
  if (!block) return { frontmatter: {}, body: src };
  const yamlText = src.slice(block.openEnd, block.yamlEnd);
  const body = src.slice(block.closeEnd).replace(/^\r?\n/, '');
  // Checked before any YAML work: the parser's cost grows with the text, so a file from git
  // with an oversized block is refused unread, like invalid YAML.
  if (Buffer.byteLength(yamlText, 'utf8') > MAX_FRONTMATTER_BYTES) {
    return { frontmatter: {}, body, error: FRONTMATTER_LIMITS_MESSAGE };
  }
  return { ...readFrontmatter(yamlText), body };
}

/** What a frontmatter block reads as: its keys, or why they cannot be used. */
type ReadFrontmatter = Omit<ParsedPageFile, 'body'>;

/**
 * Frontmatter blocks of at least this many characters have what they read as cached: at the
 * limits a parse is tens of milliseconds, and one write is read back by its save, its index
 * row, the next reads and the reconciliation a change on disk starts, all of the same text.
 */
const CACHED_YAML_CHARS = 1024;
/**
 * Keyed by the block's hash: the block itself is a slice of its file's text and would keep
 * it all. Bounded by a megabyte of YAML (the objects it reads as take a few times that).
 */
const readBlocks = new LruCache<{ read: ReadFrontmatter; chars: number }>(
  256,
  1024 * 1024,
  (entry) => entry.chars,
);

/** `parseFrontmatter`, from the cache when the block is large; each caller gets its own copy. */
function readFrontmatter(yamlText: string): ReadFrontmatter {
  if (yamlText.length < CACHED_YAML_CHARS) return parseFrontmatter(yamlText);
  const key = hashOf(yamlText);
  const read = readBlocks.get(key)?.read ?? parseFrontmatter(yamlText);
  readBlocks.set(key, { read, chars: yamlText.length });
  return { ...read, frontmatter: structuredClone(read.frontmatter) };
}

/** Parses one frontmatter block (within the size limit); never throws. */
function parseFrontmatter(yamlText: string): ReadFrontmatter {
  // Outside the try: a parser that cannot be loaded is Folio's fault, not the page's.
  const { parseDocument } = loadYaml();
  try {
    // YAML 1.2 core schema: dates stay strings, `yes`/`no` stay strings. The library's own
    // duplicate-key check compares every key with every other; `keyProblem` is linear.
    const doc = parseDocument(yamlText, { prettyErrors: true, uniqueKeys: false });
    if (doc.errors.length > 0) return { frontmatter: {}, error: firstLine(doc.errors[0]?.message) };
    const problem = keyProblem(doc);
    if (problem) return { frontmatter: {}, error: problem };
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    if (value === null || value === undefined) return { frontmatter: {} };
    if (typeof value !== 'object' || Array.isArray(value)) {
      return { frontmatter: {}, error: 'Frontmatter must be a mapping of keys to values' };
    }
    // An own `__proto__` key would later turn Object.assign into a prototype change.
    const frontmatter = Object.fromEntries(Object.entries(value).filter(([k]) => k !== '__proto__'));
    return { frontmatter };
  } catch (err) {
    return { frontmatter: {}, error: firstLine((err as Error).message) };
  }
}

/**
 * Most bytes of YAML a page's frontmatter may hold. Real frontmatter is well under a
 * kilobyte. The YAML parser is linear but not fast: 16 KB of its costliest shapes (long
 * flow lists, many short keys) takes it about 25 ms, where 64 KB took up to 100 ms, so
 * this bound keeps every read and write of a page far from stalling the event loop.
 */
export const MAX_FRONTMATTER_BYTES = 16 * 1024;

/** Most keys a page's frontmatter may hold, counted at every level of nesting. */
export const MAX_FRONTMATTER_KEYS = 1_000;

/**
 * The message of every refusal of oversized frontmatter, on write and on read. The number
 * is grouped by hand: `toLocaleString` at module load would map ICU's data at every start.
 */
export const FRONTMATTER_LIMITS_MESSAGE =
  `Frontmatter may hold at most ${String(MAX_FRONTMATTER_KEYS).replace(/\B(?=(\d{3})+$)/g, ',')} keys ` +
  `and ${MAX_FRONTMATTER_BYTES / 1024} KB of YAML`;

/**
 * A parsed document's first problem with its keys: more than {@link MAX_FRONTMATTER_KEYS}
 * in all, or one repeated in a mapping. One visit of the document, one set per mapping.
 */
function keyProblem(doc: ReturnType<typeof Yaml.parseDocument>): string | null {
  const { isMap, isPair, isScalar, visit } = loadYaml();
  let keys = 0;
  let problem: string | null = null;
  visit(doc, {
    Map(_key, map) {
      if (!isMap(map)) return undefined;
      keys += map.items.length;
      if (keys > MAX_FRONTMATTER_KEYS) {
        problem = FRONTMATTER_LIMITS_MESSAGE;
        return visit.BREAK;
      }
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isPair(pair)) continue;
        const id = isScalar(pair.key) ? pair.key.value : pair.key;
        if (seen.has(id)) {
          problem = firstLine(`Map keys must be unique: ${String(id)}`);
          return visit.BREAK;
        }
        seen.add(id);
      }
      return undefined;
    },
  });
  return problem;
}

/**
 * The UTF-8 bytes of a page file's YAML frontmatter (between its fences; 0 without a
 * block): what `parsePageFile` holds to {@link MAX_FRONTMATTER_BYTES}. Linear in the
 * frontmatter, not the body.
 */
export function frontmatterBlockBytes(text: string): number {
  const src = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const block = findFrontmatterBlock(src);
  return block ? Buffer.byteLength(src.slice(block.openEnd, block.yamlEnd), 'utf8') : 0;
}

/** Whether the mappings in `value` hold more than `max` keys in all; iterative and stops early. */
export function countsMoreKeysThan(value: unknown, max: number): boolean {
  let keys = 0;
  const pending: unknown[] = [value];
  for (let item = pending.pop(); pending.length > 0 || item !== undefined; item = pending.pop()) {
    if (item === null || typeof item !== 'object') continue;
    const children = Object.values(item);
    if (!Array.isArray(item)) keys += children.length;
    if (keys > max) return true;
    for (const child of children) pending.push(child);
  }
  return false;
}

function firstLine(message: string | undefined): string {
  return `Invalid frontmatter: ${(message ?? 'unknown error').split('\n')[0]}`;
}

/**
 * Writes a page file: `---`, the canonical frontmatter as YAML (no line folding, so diffs
 * stay line-based), `---`, a blank line, then the body verbatim. The fences are written even
 * for empty frontmatter so a body starting with `---` is never mistaken for frontmatter.
 */
export function serializePageFile(frontmatter: Record<string, unknown>, body: string): string {
  const fm = canonicalFrontmatter(frontmatter);
  const yamlText = Object.keys(fm).length === 0 ? '' : loadYaml().stringify(fm, { lineWidth: 0 });
  return `---\n${yamlText}---\n${body === '' ? '' : `\n${body}`}`;
}

/**
 * How deep frontmatter written through Folio may nest (the mapping itself is level 1). Real
 * frontmatter nests a few levels; YAML serialisation recurses once per level, so an
 * unbounded depth would exhaust the stack instead of being refused.
 */
export const MAX_FRONTMATTER_DEPTH = 32;

/** Whether `value` nests objects or arrays more than `max` levels deep; iterative, so any depth is safe. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * The frontmatter in canonical form: `CANONICAL_KEYS` first in that order, then the other
 * keys alphabetically (code-unit order, independent of locale); undefined values and an
 * empty or blank `description` dropped. Nested values are kept as they are.
 */
export function canonicalFrontmatter(fm: Record<string, unknown>): Record<string, unknown> {
  const known = new Set<string>(CANONICAL_KEYS);
  const keys = [
    ...CANONICAL_KEYS.filter((k) => Object.hasOwn(fm, k)),
    ...Object.keys(fm)
      .filter((k) => !known.has(k))
      .sort(),
  ];
  return Object.fromEntries(
    keys
      .filter((k) => k !== '__proto__' && fm[k] !== undefined)
      .filter((k) => !(k === 'description' && typeof fm[k] === 'string' && fm[k].trim() === ''))
      .map((k) => [k, fm[k]]),
  );
}

/** `'sha256:'` followed by the lowercase hex SHA-256 of the UTF-8 text (or the bytes). */
export function hashOf(text: string | Buffer): string {
  const hash = createHash('sha256');
  // A text of megabytes is encoded a slice at a time (see textSlices): 6 ms for 9 MB, where
  // encoding it whole took 30.
  if (typeof text === 'string' && text.length > HASH_SLICE) {
    for (const slice of textSlices(text, HASH_SLICE)) hash.update(slice);
  } else {
    hash.update(text);
  }
  return `sha256:${hash.digest('hex')}`;
}

const HASH_SLICE = 256 * 1024;

/** The page's `content_hash`: `hashOf` the Markdown body exactly as stored. */
export function contentHash(body: string): string {
  return hashOf(body);
}

/**
 * The page's `frontmatter_hash`: `hashOf` a stable JSON of the canonical frontmatter, with
 * object keys sorted at every depth, so key order in the file or request never changes it.
 */
export function frontmatterHash(fm: Record<string, unknown>): string {
  return hashOf(stableJson(canonicalFrontmatter(fm)));
}

/** JSON with object keys sorted recursively; `undefined` members are omitted as JSON does. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const obj = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(obj)
        .sort()
        .map((k) => [k, obj[k]]),
    );
  });
}

/**
 * Reads Folio's own keys from arbitrary frontmatter without throwing: scalars become
 * trimmed strings, `tags` may be a list or a comma-separated string (deduplicated, blanks
 * dropped), `status` is `published` only when it says so (case-insensitive, or legacy
 * `published: true`) and `draft` otherwise, `order` is a finite number or absent.
 */
export function readPageMeta(fm: Record<string, unknown>): PageMeta {
  const meta: PageMeta = { tags: readTags(fm.tags), status: readStatus(fm) };
  const id = scalarString(fm.id);
  const title = scalarString(fm.title);
  const description = scalarString(fm.description);
  const order = readOrder(fm.order);
  if (id) meta.id = id;
  if (title) meta.title = title;
  if (description) meta.description = description;
  if (order !== undefined) meta.order = order;
  return meta;
}

function scalarString(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() || undefined;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

function readTags(v: unknown): string[] {
  const items = typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v : [];
  const tags = items.map(scalarString).filter((t): t is string => t !== undefined);
  return [...new Set(tags)];
}

/** Whether the frontmatter says a status at all (`status`, or legacy `published: true|false`). */
export function statusIsSet(fm: Record<string, unknown>): boolean {
  return typeof fm.status === 'string' || typeof fm.published === 'boolean';
}

function readStatus(fm: Record<string, unknown>): PageMeta['status'] {
  if (typeof fm.status === 'string')
    return fm.status.trim().toLowerCase() === 'published' ? 'published' : 'draft';
  return fm.published === true ? 'published' : 'draft';
}

function readOrder(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}
