/** The writers' sidebar when it follows a docs tool's navigation: the answer and its rows. */
import type { NavEntry, PageNavigation } from '../../../src/contract/page-navigation';

export type { NavEntry, PageNavigation };

/** How the toggle names each tool's navigation. */
export const TOOL_NAMES: Record<Exclude<PageNavigation['following'], 'folio'>, string> = {
  mkdocs: 'MkDocs',
  docusaurus: 'Docusaurus',
  gitbook: 'GitBook',
};

/** One visible line of the navigation tree, with what the WAI-ARIA tree pattern needs. */
export interface NavRow {
  entry: NavEntry;
  /** The entry's position (`0/2/1`): a page may be listed twice, so paths are not unique. */
  key: string;
  level: number;
  posinset: number;
  setsize: number;
  parentKey: string | null;
}

/** The navigation followed by a "Not in navigation" group when some pages are left out. */
export function navEntries(nav: PageNavigation): NavEntry[] {
  if (nav.not_in_navigation.length === 0) return nav.items;
  return [
    ...nav.items,
    { type: 'section', title: 'Not in navigation', path: null, children: nav.not_in_navigation },
  ];
}

const keyOf = (parentKey: string | null, index: number) =>
  parentKey === null ? String(index) : `${parentKey}/${index}`;

/** The rows a reader sees: sections list their entries only when expanded. */
export function navRows(entries: readonly NavEntry[], expanded: ReadonlySet<string>): NavRow[] {
  const rows: NavRow[] = [];
  const walk = (list: readonly NavEntry[], level: number, parentKey: string | null) => {
    list.forEach((entry, index) => {
      const key = keyOf(parentKey, index);
      rows.push({ entry, key, level, posinset: index + 1, setsize: list.length, parentKey });
      if (entry.type === 'section' && expanded.has(key)) walk(entry.children, level + 1, key);
    });
  };
  walk(entries, 1, null);
  return rows;
}

/** The keys of the sections on the way to the first place `pagePath` is listed. */
export function sectionsAbove(entries: readonly NavEntry[], pagePath: string | null): string[] {
  if (!pagePath) return [];
  const find = (list: readonly NavEntry[], parentKey: string | null): string[] | null => {
    for (const [index, entry] of list.entries()) {
      const key = keyOf(parentKey, index);
      if (entry.type === 'page' && entry.path === pagePath) return [];
      if (entry.type !== 'section') continue;
      if (entry.path === pagePath) return [];
      const inner = find(entry.children, key);
      if (inner) return [key, ...inner];
    }
    return null;
  };
  return find(entries, null) ?? [];
}

/** Every section's key, to open them all when the navigation is short. */
export function sectionKeys(entries: readonly NavEntry[], parentKey: string | null = null): string[] {
  return entries.flatMap((entry, index) => {
    if (entry.type !== 'section') return [];
    const key = keyOf(parentKey, index);
    return [key, ...sectionKeys(entry.children, key)];
  });
}

/** How many entries the navigation holds, sections' entries included. */
export function entryCount(entries: readonly NavEntry[]): number {
  return entries.reduce((n, e) => n + 1 + (e.type === 'section' ? entryCount(e.children) : 0), 0);
}
