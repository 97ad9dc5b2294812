/**
 * Which docs tool's navigation a workspace follows: found from the files at its root
 * (`mkdocs.yml`, a Docusaurus config or sidebars file, GitBook's `SUMMARY.md`, an
 * Obsidian vault's `.obsidian/`), or chosen by an admin in the `nav_source` setting.
 */
import { readDocusaurus, DOCUSAURUS_MARKERS } from './docusaurus.js';
import { GITBOOK_MARKERS, readGitbook } from './gitbook.js';
import { MKDOCS_FILES, readMkdocs } from './mkdocs.js';
import { NAV_SOURCES, type NavFiles, type NavSourceName, type Outline } from './outline.js';

export { NAV_SOURCES, type NavFiles, type NavSourceName, type Outline, type OutlineItem } from './outline.js';

/** The `nav_source` setting: `auto` follows what {@link detectNavSources} finds first. */
export const NAV_SOURCE_SETTINGS = ['auto', ...NAV_SOURCES] as const;
export type NavSourceSetting = (typeof NAV_SOURCE_SETTINGS)[number];

/** A tool found in the workspace, and the file that shows it. */
export interface DetectedSource {
  source: NavSourceName | 'obsidian';
  file: string;
}

/** Files whose change may change a workspace's navigation (checked by the site's fingerprint). */
export const NAV_MARKER_FILES = [...MKDOCS_FILES, ...DOCUSAURUS_MARKERS, ...GITBOOK_MARKERS, '.obsidian'];

/** The tools whose files are in the workspace, in the order `auto` prefers them. */
export async function detectNavSources(
  exists: (relPath: string) => Promise<boolean>,
): Promise<DetectedSource[]> {
  const found: DetectedSource[] = [];
  const first = async (source: DetectedSource['source'], names: readonly string[]) => {
    for (const file of names) {
      if (await exists(file)) {
        found.push({ source, file });
        return;
      }
    }
  };
  await first('mkdocs', MKDOCS_FILES);
  await first('docusaurus', DOCUSAURUS_MARKERS);
  await first('gitbook', GITBOOK_MARKERS);
  await first('obsidian', ['.obsidian']);
  return found;
}

/** What the workspace follows: the setting, or for `auto` the first tool found (folders otherwise). */
export function chooseNavSource(
  setting: NavSourceSetting,
  detected: readonly DetectedSource[],
): NavSourceName {
  if (setting !== 'auto') return setting;
  const tool = detected.find((d) => d.source !== 'obsidian');
  return (tool?.source as NavSourceName | undefined) ?? 'folio';
}

/**
 * The outline of the chosen tool over the given (published) page paths; null for Folio's
 * own folders rule, or when the tool's files are gone (the site then follows the folders).
 */
export async function readOutline(
  source: NavSourceName,
  files: NavFiles,
  paths: readonly string[],
): Promise<Outline | null> {
  switch (source) {
    case 'mkdocs':
      return readMkdocs(files, paths);
    case 'docusaurus':
      return readDocusaurus(files, paths);
    case 'gitbook':
      return readGitbook(files, paths);
    case 'folio':
      return null;
  }
}
