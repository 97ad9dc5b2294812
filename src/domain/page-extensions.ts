/**
 * The file extensions that make a file a page: Markdown (`.md`) and MDX (`.mdx`, as
 * Docusaurus repositories hold). Dependency-free so the web app imports it as the server does.
 * A page keeps the extension it has; pages created without one get `.md`.
 */
export const PAGE_EXTENSIONS = ['.md', '.mdx'] as const;

/** One of {@link PAGE_EXTENSIONS}. */
export type PageExtension = (typeof PAGE_EXTENSIONS)[number];

/** The extension a page gets when the path given has none. */
export const DEFAULT_PAGE_EXTENSION: PageExtension = '.md';

const PAGE_EXTENSION_RE = /\.mdx?$/i;

/** Whether a path names a page file (`x.md` or `x.mdx`, any case). */
export function isPagePath(path: string): boolean {
  return PAGE_EXTENSION_RE.test(path);
}

/** The page extension a path ends in, lowercased (`.md`, `.mdx`), or `''` when none. */
export function pageExtensionOf(path: string): PageExtension | '' {
  const match = PAGE_EXTENSION_RE.exec(path);
  return match ? (match[0].toLowerCase() as PageExtension) : '';
}

/** The path without its page extension (`guides/a.mdx` -> `guides/a`); other paths unchanged. */
export function stripPageExtension(path: string): string {
  return path.replace(PAGE_EXTENSION_RE, '');
}

/**
 * The page file names a link or route without extension may mean, in the order they win:
 * `x.md` before `x.mdx` (a `.md` and a `.mdx` of one name: the `.md` is the page).
 */
export function pagePathCandidates(bare: string): string[] {
  return PAGE_EXTENSIONS.map((ext) => `${bare}${ext}`);
}

/** Whether a file name is a folder's own page (`index.md`, `index.mdx`). */
export function isIndexPageName(name: string): boolean {
  return /^index\.mdx?$/i.test(name);
}

/**
 * The `.mdx` pages a `.md` page of the same name in the same folder shadows (`a.md` and
 * `a.mdx`): they would share one extension-less URL, and the `.md` is the page served.
 */
export function shadowedPagePaths(paths: Iterable<string>): Set<string> {
  const all = new Set(paths);
  const shadowed = new Set<string>();
  for (const p of all) {
    if (pageExtensionOf(p) === '.mdx' && all.has(`${stripPageExtension(p)}.md`)) shadowed.add(p);
  }
  return shadowed;
}

/**
 * A move's or rename's target keeps the page's extension when it names none
 * (`guides/tabs.mdx` moved to `howto/tabs` lands at `howto/tabs.mdx`).
 */
export function keepPageExtension(target: string, from: string): string {
  const trimmed = target.trim();
  return pageExtensionOf(trimmed) ? target : `${trimmed}${pageExtensionOf(from)}`;
}

/**
 * Whether a file on disk is a page: its name ends in a page extension exactly as written
 * (`a.md`, `a.mdx`; `README.MD` stays a plain file, as the API could not address it).
 */
export function isPageFileName(name: string): boolean {
  return PAGE_EXTENSIONS.some((ext) => name.endsWith(ext));
}
