/**
 * Which tool an export comes from. Kept apart from the converters, which run in a worker
 * thread: the server loads this at start, and Confluence's converter brings turndown and
 * its DOM (about 330 KB of code) that only a conversion needs.
 */
import { invalid } from '../../errors.js';
import type { ExportFiles } from './archive.js';
import { isNotionExport } from './notion.js';
import type { ImportFormat } from './plan.js';

/** Whether an export looks like a Confluence space export. */
export function isConfluenceExport(files: ExportFiles): boolean {
  return [...files.keys()].some(
    (n) => /(^|\/)index\.html$/.test(n) && /Available Pages|pageSection/.test(files.get(n)!.toString('utf8')),
  );
}

/** Which tool an export comes from, from its files; 400 when none fits. */
export function detectFormat(files: ExportFiles): ImportFormat {
  if (isNotionExport(files)) return 'notion';
  if (isConfluenceExport(files)) return 'confluence';
  const names = [...files.keys()];
  if (names.some((n) => /(^|\/)mkdocs\.ya?ml$/.test(n))) return 'mkdocs';
  if (names.some((n) => /(^|\/)docusaurus\.config\.[cm]?[jt]s$/.test(n))) return 'docusaurus';
  if (names.some((n) => /(^|\/)SUMMARY\.md$/.test(n))) return 'gitbook';
  if (names.some((n) => n.startsWith('.obsidian/') || n.includes('/.obsidian/'))) return 'obsidian';
  if (names.some((n) => n.endsWith('.md'))) return 'obsidian';
  throw invalid('from', 'The export is not one Folio can read: give --from (notion, confluence, …)');
}
