import type { Kysely } from 'kysely';
import { inBatches } from '../store/batches.js';
import type { Database, SearchDocumentsTable } from '../store/schema.js';
import { indexText, MAX_INDEXED_BODY } from './query-text.js';
import type * as PlainTextModule from '../render/plain-text.js';
import type { SearchDocument } from './search-index.js';

type PlainText = typeof PlainTextModule;
let plainText: Promise<PlainText> | undefined;
/** The Markdown parser loads on the first page indexed, not at start-up (see markdown-loader.ts). */
const loadPlainText = (): Promise<PlainText> => (plainText ??= import('../render/plain-text.js'));

/**
 * The portable `search_documents` row of a page (migration 0003). The body is indexed as
 * the text a reader sees (no Markdown syntax), so matches and snippets are of that text.
 * Text is stripped of the highlight markers and the body capped, the same way for both
 * dialects.
 */
export async function documentRow(doc: SearchDocument): Promise<SearchDocumentsTable> {
  const { markdownPlainText } = await loadPlainText();
  return {
    page_id: doc.page_id,
    workspace_id: doc.workspace_id,
    path: doc.path,
    title: indexText(doc.title),
    description: indexText(doc.description),
    tags: indexText(doc.tags.join(' ')),
    // Parsing is bounded too: four times the cap of source holds more text than the cap keeps in any real page.
    body: indexText(markdownPlainText(doc.body.slice(0, MAX_INDEXED_BODY * 4)), MAX_INDEXED_BODY),
    status: doc.status,
    restricted: doc.restricted ? 1 : 0,
  };
}

/**
 * The documents of `docs` as rows, one per page (the last wins when a page repeats: one
 * multi-row upsert may not touch a row twice on PostgreSQL).
 */
export async function documentRows(docs: readonly SearchDocument[]): Promise<SearchDocumentsTable[]> {
  const latest = [...new Map(docs.map((d) => [d.page_id, d])).values()];
  return Promise.all(latest.map(documentRow));
}

/**
 * Inserts or replaces pages' rows, a batch per statement; ON CONFLICT works the same on
 * SQLite and PostgreSQL. Other columns of an existing row (SQLite's `fts_rowid`) are kept.
 */
export async function upsertDocumentRows(
  trx: Kysely<Database>,
  rows: readonly SearchDocumentsTable[],
): Promise<void> {
  for (const batch of inBatches(rows)) {
    await trx
      .insertInto('search_documents')
      .values(batch)
      .onConflict((oc) =>
        oc.column('page_id').doUpdateSet((eb) => ({
          workspace_id: eb.ref('excluded.workspace_id'),
          path: eb.ref('excluded.path'),
          title: eb.ref('excluded.title'),
          description: eb.ref('excluded.description'),
          tags: eb.ref('excluded.tags'),
          body: eb.ref('excluded.body'),
          status: eb.ref('excluded.status'),
          restricted: eb.ref('excluded.restricted'),
        })),
      )
      .execute();
  }
}

/** Picks the snippet to show: the body's when it highlights a match, else the description's, else whichever has text. */
export function chooseSnippet(
  candidates: ReadonlyArray<string | null | undefined>,
  marked: (s: string) => boolean,
): string {
  const texts = candidates.filter((c): c is string => typeof c === 'string' && c.trim() !== '');
  return texts.find(marked) ?? texts[0] ?? '';
}
