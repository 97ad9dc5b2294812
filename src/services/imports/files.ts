/**
 * Exports of tools whose files Folio reads in place (Obsidian, MkDocs, Docusaurus,
 * GitBook): Markdown pages are imported as they are, title from their frontmatter or
 * first heading; anything else is reported as kept out, since those repositories are
 * best connected as a git remote, where every file stays where it is.
 */
import path from 'node:path';
import { parsePageFile } from '../../domain/frontmatter.js';
import type { ExportFiles } from './archive.js';
import type { ImportFormat, ImportPlan } from './plan.js';

export function convertFiles(files: ExportFiles, format: ImportFormat): ImportPlan {
  const plan: ImportPlan = { pages: [], assets: [], kept: [], dropped: [] };
  let next = 0;
  for (const [name, data] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!name.endsWith('.md') || name.split('/').some((s) => s.startsWith('.'))) {
      plan.dropped.push({
        source: name,
        reason: `not a page: connect the ${format} repository as a git remote to keep every file in place`,
      });
      continue;
    }
    const { frontmatter, body } = parsePageFile(data.toString('utf8'));
    const heading = /^# (.+)$/m.exec(body)?.[1]?.trim();
    const title =
      typeof frontmatter.title === 'string' && frontmatter.title.trim()
        ? frontmatter.title.trim()
        : (heading ?? path.posix.basename(name, '.md'));
    plan.pages.push({ key: `p${next++}`, path: name, title, body, source: name });
    if (Object.keys(frontmatter).some((k) => k !== 'title'))
      plan.kept.push({ source: name, path: name, note: 'its other frontmatter keys were not carried over' });
  }
  return plan;
}
