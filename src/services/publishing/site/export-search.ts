/**
 * The static export's search: the sections of the exported pages in a MiniSearch index,
 * written as a script (`_assets/search-index.js`) rather than JSON, because a page opened
 * from file:// may load a script but not fetch a file. The palette loads it, with
 * MiniSearch's browser build, on first open.
 */
import type { SitePage } from './nav.js';
import { newIndex, pageDocs, SEARCH_FIELDS, sectionsOf, yielder } from './search-sections.js';

/** Characters of a section's text kept for snippets (the index itself covers all of it). */
const SNIPPET_TEXT = 600;

/**
 * The export's index script: `window.FolioSearchData = { fields, pages, docs, index }`,
 * pages as `[title, file]` (file relative to the export's root), docs by id as
 * `[page, heading, anchor, text]`. Yields to the event loop between pages.
 */
export async function exportSearchScript(
  pages: ReadonlyArray<{ page: SitePage; body: string }>,
  fileOf: (page: SitePage) => string,
): Promise<string> {
  const index = newIndex();
  const pause = yielder();
  const docs: Array<[number, string, string | null, string]> = [];
  let id = 0;
  const list = pages.map(({ page }) => [page.title, fileOf(page)]);
  for (const [n, { page, body }] of pages.entries()) {
    const sectionDocs = pageDocs(page, sectionsOf(page, body), () => id++);
    index.addAll(sectionDocs);
    for (const doc of sectionDocs)
      docs[doc.id] = [n, doc.heading, doc.anchor, doc.text.slice(0, SNIPPET_TEXT)];
    await pause();
  }
  const data = { fields: SEARCH_FIELDS, pages: list, docs, index: index.toJSON() };
  // `<` escaped so no text can close a script element or open a comment.
  return `window.FolioSearchData=${JSON.stringify(data).replace(/</g, '\\u003c')};\n`;
}
