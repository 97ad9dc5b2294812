import type { SearchDocumentsTable } from '../store/schema.js';
import { indexText, MAX_INDEXED_BODY } from './query-text.js';
import type * as PlainTextModule from '../render/plain-text.js';
import type { SearchDocument } from './search-index.js';
import { nextLoopTurn } from '../lib/event-loop-turn.js';

type PlainText = typeof PlainTextModule;
let plainText: Promise<PlainText> | undefined;
/** The Markdown parser loads on the first page indexed, not at start-up (see markdown-loader.ts). */
const loadPlainText = (): Promise<PlainText> => (plainText ??= import('../render/plain-text.js'));

/**
 * Derives the text a reader sees of Markdown bodies off the event loop (the render
 * workers), in order; what {@link documentRow} hands bodies too large to parse inline.
 */
export type PlainTextWorker = (markdowns: readonly string[]) => Promise<string[]>;

/**
 * Bodies up to this many characters are parsed on the event loop (a few milliseconds);
 * longer ones go to the {@link PlainTextWorker}, because parsing grows with the text and
 * the cap below still lets a page bring a megabyte of Markdown.
 */
export const INLINE_PLAIN_TEXT_CHARS = 64 * 1024;

/** Inline parsing yields to other work once it has held the event loop this long. */
const INLINE_SLICE_MS = 10;
let sliceStart = 0;

/** The plain text of `markdown`: inline when short (yielding between pages), else in a worker. */
async function plainTextOf(markdown: string, worker: PlainTextWorker | undefined): Promise<string> {
  if (worker && markdown.length > INLINE_PLAIN_TEXT_CHARS) return (await worker([markdown]))[0]!;
  const { markdownPlainText } = await loadPlainText();
  // Many pages indexed at once (a rebuild, a pull) are parsed one after another: the loop
  // gets a turn between them, so the batch never holds it for long.
  if (performance.now() - sliceStart > INLINE_SLICE_MS) {
    await nextLoopTurn();
    sliceStart = performance.now();
  }
  return markdownPlainText(markdown);
}

/** Parsing is bounded too: four times the cap of source holds more text than the cap keeps in any real page. */
const indexedSource = (body: string): string => body.slice(0, MAX_INDEXED_BODY * 4);

/**
 * The plain texts of several bodies, derived in the render workers side by side, for pages
 * about to be indexed together: a batch of saves asks for them while its files are written,
 * so their parsing is neither on the event loop nor inside the index transaction (which
 * holds SQLite's one connection). Undefined when the workers failed: each body is then
 * derived when indexed, as a single page is.
 */
export function readerTexts(
  bodies: readonly string[],
  worker: PlainTextWorker,
): Promise<(string | undefined)[]> {
  return worker(bodies.map(indexedSource)).catch(() => bodies.map(() => undefined));
}

/**
 * The portable `search_documents` row of a page (migration 0003). The body is indexed as
 * the text a reader sees (no Markdown syntax), so matches and snippets are of that text.
 * Text is stripped of the highlight markers and the body capped, the same way for both
 * dialects. A long body is parsed by `worker` when given (see {@link plainTextOf}).
 */
export async function documentRow(
  doc: SearchDocument,
  worker?: PlainTextWorker,
): Promise<SearchDocumentsTable> {
  const text = doc.plainText ?? (await plainTextOf(indexedSource(doc.body), worker));
  return {
    page_id: doc.page_id,
    workspace_id: doc.workspace_id,
    path: doc.path,
    title: indexText(doc.title),
    description: indexText(doc.description),
    tags: indexText(doc.tags.join(' ')),
    body: indexText(text, MAX_INDEXED_BODY),
    status: doc.status,
    restricted: doc.restricted ? 1 : 0,
  };
}

/**
 * The documents of `docs` as rows, one per page (the last wins when a page repeats: one
 * multi-row upsert may not touch a row twice on PostgreSQL), derived one after another.
 */
export async function documentRows(
  docs: readonly SearchDocument[],
  worker?: PlainTextWorker,
): Promise<SearchDocumentsTable[]> {
  const rows: SearchDocumentsTable[] = [];
  for (const doc of new Map(docs.map((d) => [d.page_id, d])).values())
    rows.push(await documentRow(doc, worker));
  return rows;
}

/** Picks the snippet to show: the body's when it highlights a match, else the description's, else whichever has text. */
export function chooseSnippet(
  candidates: ReadonlyArray<string | null | undefined>,
  marked: (s: string) => boolean,
): string {
  const texts = candidates.filter((c): c is string => typeof c === 'string' && c.trim() !== '');
  return texts.find(marked) ?? texts[0] ?? '';
}
