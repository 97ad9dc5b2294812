/**
 * The static export's search index (`_assets/search-index.js`), a compact format of its
 * own searched by the palette script (render/site-assets/palette.js): a script rather than
 * JSON, because a page opened from file:// may load a script but not fetch a file. Sized
 * for thousands of pages: terms with delta-encoded postings, and a bounded start of each
 * section's text for snippets instead of the text itself.
 */
import type { PageSection } from '../../../render/sections.js';
import type { SitePage } from './nav.js';
import { sectionsOf, termsOf, yielder } from './search-sections.js';

/** Characters of a section's text kept for its snippet. */
export const EXPORT_SNIPPET_TEXT = 120;
/** Distinct text terms indexed per section (the first ones met); headings and titles always. */
export const EXPORT_TERMS_PER_SECTION = 300;

/** Posting flags: the term is in the section's text, its heading, or its page's title. */
const IN_TEXT = 1;
const IN_HEADING = 2;
const IN_TITLE = 4;
const FLAG_BITS = 3;

/**
 * The export's index script: `window.FolioSearchData = { v: 2, pages, terms, postings }`.
 * `pages`: `[title, file, sections]`, file relative to the export's root, sections
 * `[heading, anchor, text]` (text cut to EXPORT_SNIPPET_TEXT); sections are numbered in
 * that order over all pages. `terms` is sorted; `postings[i]` lists term i's sections as
 * base-36 numbers separated by spaces, each `(section - previous section) << 3 | flags`
 * (flags: 1 text, 2 heading, 4 the page's title, given on the page's first section).
 * Yields to the event loop between pages.
 */
export async function exportSearchScript(
  pages: ReadonlyArray<{ page: SitePage; body: string }>,
  fileOf: (page: SitePage) => string,
): Promise<string> {
  const pause = yielder();
  const postings = new Map<string, number[]>();
  const add = (term: string, section: number, flag: number) => {
    let list = postings.get(term);
    if (!list) postings.set(term, (list = []));
    // Sections are visited in order: a term's last entry is the current section or older.
    if (list.length && list[list.length - 1]! >>> FLAG_BITS === section) list[list.length - 1]! |= flag;
    else list.push((section << FLAG_BITS) | flag);
  };
  const list: Array<[string, string, Array<[string, string | null, string]>]> = [];
  let next = 0;
  for (const { page, body } of pages) {
    const found = await sectionsOf(page, body);
    const sections: readonly PageSection[] = found.length
      ? found
      : [{ heading: null, anchor: null, text: '' }];
    const first = next;
    for (const term of termsOf(page.title)) add(term, first, IN_TITLE);
    const entries: Array<[string, string | null, string]> = [];
    for (const section of sections) {
      const id = next++;
      for (const term of termsOf(section.heading ?? '')) add(term, id, IN_HEADING);
      const seen = new Set<string>();
      for (const term of termsOf(section.text)) {
        if (seen.has(term)) continue;
        if (seen.size >= EXPORT_TERMS_PER_SECTION) break;
        seen.add(term);
        add(term, id, IN_TEXT);
      }
      entries.push([section.heading ?? '', section.anchor, section.text.slice(0, EXPORT_SNIPPET_TEXT)]);
    }
    list.push([page.title, fileOf(page), entries]);
    await pause();
  }
  const terms = [...postings.keys()].sort();
  const encoded = terms.map((term) => {
    let previous = 0;
    return postings
      .get(term)!
      .map((entry) => {
        const section = entry >>> FLAG_BITS;
        const value = (section - previous) * (1 << FLAG_BITS) + (entry & ((1 << FLAG_BITS) - 1));
        previous = section;
        return value.toString(36);
      })
      .join(' ');
  });
  const data = { v: 2, pages: list, terms, postings: encoded };
  // `<` escaped so no text can close a script element or open a comment.
  return `window.FolioSearchData=${JSON.stringify(data).replace(/</g, '\\u003c')};\n`;
}
