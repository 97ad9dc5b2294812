/**
 * The navigation another docs tool declares for a workspace's pages, in one shape the
 * site's structure is built from: pages (with the tool's label), sections (with their
 * own page) and outside links. Paths are workspace paths of pages (`.md`, `.mdx`).
 */
import { stripPageExtension } from '../../../../domain/page-extensions.js';

/** The navigations Folio can follow; `folio` is its own folders-and-order rule. */
export const NAV_SOURCES = ['folio', 'mkdocs', 'docusaurus', 'gitbook'] as const;
export type NavSourceName = (typeof NAV_SOURCES)[number];

export type OutlineItem =
  | { kind: 'page'; path: string; label?: string }
  | {
      kind: 'section';
      /** '' names the section after its page, else after its folder. */
      label: string;
      /** The section's own page. */
      index?: string;
      /** The folder the section stands for, when it is one. */
      dir?: string;
      children: OutlineItem[];
    }
  | { kind: 'link'; label: string; href: string };

/** A tool's navigation as read from its files. */
export interface Outline {
  source: NavSourceName;
  items: OutlineItem[];
  /** What could not be followed, in words a writer can act on. */
  findings: string[];
}

/** What the navigation readers need of a workspace's tree (paths confined to it). */
export interface NavFiles {
  /** A file's text, or null when it is absent or cannot be read. */
  readText(relPath: string): Promise<string | null>;
  /** A page's frontmatter, or null when it is absent. */
  frontmatter(relPath: string): Promise<Record<string, unknown> | null>;
}

/** Joins and normalises a relative path; null when it leaves the workspace. */
export function joinPath(base: string, rel: string): string | null {
  const parts: string[] = base ? base.split('/') : [];
  for (const seg of rel.replace(/\\/g, '/').split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}

/** The folder of a workspace path ('' for the root). */
export function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** A folder or file name made readable: `getting-started` -> `Getting started`. */
export function labelOf(name: string): string {
  const words = stripPageExtension(name)
    .replace(/^\d+[-_.\s]+/, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : name;
}
