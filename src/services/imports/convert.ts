/**
 * Which tool an export comes from, and its conversion into a plan: pure functions, run
 * in a worker thread (convert-worker.ts) so a large export never holds up the server.
 */
import { invalid } from '../../errors.js';
import type { ExportFiles } from './archive.js';
import { convertConfluence, isConfluenceExport } from './confluence.js';
import { convertFiles } from './files.js';
import { convertNotion, isNotionExport } from './notion.js';
import type { ImportFormat, ImportPlan } from './plan.js';

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

/** The plan for an export of `format`. */
export function planFor(format: ImportFormat, files: ExportFiles): ImportPlan {
  switch (format) {
    case 'notion':
      return convertNotion(files);
    case 'confluence':
      return convertConfluence(files);
    default:
      return convertFiles(files, format);
  }
}
