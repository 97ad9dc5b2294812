/**
 * The navigation a workspace's live site follows, read from its files: which docs tools
 * were found, which one the `nav_source` setting makes the site follow, its outline, and
 * what of it could not be followed.
 */
import { stat } from 'node:fs/promises';
import type { WorkspaceFiles } from '../../../content/workspace-files.js';
import {
  chooseNavSource,
  detectNavSources,
  NAV_MARKER_FILES,
  readOutline,
  type DetectedSource,
  type NavFiles,
  type NavSourceName,
  type NavSourceSetting,
  type OutlineItem,
} from './nav-sources/index.js';

/**
 * A config or sidebars file larger than this is not read: they are a few kilobytes (MkDocs
 * Material's own mkdocs.yml is 9 KB), and parsing YAML or JavaScript runs on the event loop.
 */
export const MAX_CONFIG_BYTES = 32 * 1024;

export interface SiteNavigation {
  setting: NavSourceSetting;
  following: NavSourceName;
  detected: DetectedSource[];
  /** Null when the site follows the folders. */
  outline: OutlineItem[] | null;
  findings: string[];
}

/** Whether anything exists at `relPath` (a folder counts), confined to the tree. */
async function present(files: WorkspaceFiles, relPath: string): Promise<boolean> {
  try {
    await stat(await files.resolve(relPath));
    return true;
  } catch {
    return false;
  }
}

function navFiles(files: WorkspaceFiles, tooLarge: string[]): NavFiles {
  return {
    async readText(relPath) {
      try {
        const info = await files.stat(relPath);
        if (!info) return null;
        if (info.size > MAX_CONFIG_BYTES) {
          tooLarge.push(relPath);
          return null;
        }
        return (await files.readRaw(relPath))?.toString('utf8') ?? null;
      } catch {
        // A path that leaves the tree, or a symlink out of it, counts as absent.
        return null;
      }
    },
    async frontmatter(relPath) {
      try {
        return (await files.read(relPath))?.frontmatter ?? null;
      } catch {
        return null;
      }
    },
  };
}

/** Reads the workspace's navigation over its published page paths. */
export async function workspaceNavigation(
  files: WorkspaceFiles,
  setting: NavSourceSetting,
  paths: readonly string[],
): Promise<SiteNavigation> {
  const detected = await detectNavSources((p) => present(files, p));
  const following = chooseNavSource(setting, detected);
  const tooLarge: string[] = [];
  const outline = await readOutline(following, navFiles(files, tooLarge), paths);
  const findings = [
    ...tooLarge.map((f) => `${f} is larger than ${MAX_CONFIG_BYTES / 1024} KB; Folio does not read it`),
    ...(outline?.findings ?? []),
  ];
  if (following !== 'folio' && !outline) {
    findings.push(`No ${following} files were found; the site follows the folders`);
    return { setting, following: 'folio', detected, outline: null, findings };
  }
  return { setting, following, detected, outline: outline?.items ?? null, findings };
}

/**
 * Changes when a docs tool's files at the root, or the git index (a pull or commit that
 * may bring `_category_` files), change: a few stat calls.
 */
export async function navFingerprint(files: WorkspaceFiles): Promise<string> {
  const marks = await Promise.all(
    [...NAV_MARKER_FILES, '.git/index'].map(async (p) => {
      try {
        const s = await stat(await files.resolve(p));
        return `${s.mtimeMs}:${s.size}`;
      } catch {
        return '-';
      }
    }),
  );
  return marks.join(',');
}
