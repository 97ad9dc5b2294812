/**
 * Which page a wikilink means. Writers coming from Obsidian link by file name
 * (`[[deployment]]`) or by title (`[[Configuration reference]]`) as often as by path, so
 * a target is looked up by workspace path first (`x.md`, `x.mdx`, then `x/index.md`), then by file
 * name, then by title, both case-insensitive. A name or title that several pages share
 * resolves to none of them: the link shows as missing and the quality scan names the
 * candidates, rather than the reader landing on a page picked at random.
 */
import { pageExtensionOf, stripPageExtension } from '../domain/page-extensions.js';
import { resolvePageTarget } from './links.js';

/** A page as the resolver needs it. */
export interface WikilinkCandidate {
  path: string;
  title?: string | null;
}

/** The page a wikilink resolves to, the pages it could mean, or nothing at all. */
export type WikilinkResolution = { path: string } | { ambiguous: string[] } | null;

const key = (text: string): string => text.normalize('NFC').trim().toLowerCase();

function addTo(index: Map<string, string[]>, name: string, path: string): void {
  const list = index.get(key(name));
  if (list) list.push(path);
  else index.set(key(name), [path]);
}

/** Resolves wikilink targets against one set of pages; build once per set and reuse. */
export class WikilinkResolver {
  private readonly paths: Set<string>;
  private readonly byName = new Map<string, string[]>();
  private readonly byTitle = new Map<string, string[]>();

  constructor(pages: Iterable<WikilinkCandidate>) {
    this.paths = new Set();
    for (const page of pages) {
      this.paths.add(page.path);
      const file = stripPageExtension(page.path.slice(page.path.lastIndexOf('/') + 1));
      addTo(this.byName, file, page.path);
      if (page.title?.trim()) addTo(this.byTitle, page.title, page.path);
    }
  }

  /**
   * Resolves a wikilink target given as a workspace path ending in `.md` (what
   * `wikilinkTargetPath` makes of `[[target]]`).
   */
  resolve(targetPath: string): WikilinkResolution {
    const text = stripPageExtension(targetPath);
    const exact =
      resolvePageTarget(targetPath, this.paths) ??
      (pageExtensionOf(targetPath) === '.md' ? resolvePageTarget(`${text}.mdx`, this.paths) : null);
    if (exact) return { path: exact };
    // A file name has no folder in it; a target with a slash can only be a path or a title.
    const candidates = [
      text.includes('/') ? undefined : this.byName.get(key(text)),
      this.byTitle.get(key(text)),
    ];
    for (const found of candidates) {
      if (!found?.length) continue;
      const unique = [...new Set(found)];
      return unique.length === 1 && unique[0] ? { path: unique[0] } : { ambiguous: unique.sort() };
    }
    return null;
  }

  /** The resolved path, or null when the target is missing or ambiguous. */
  resolvePath(targetPath: string): string | null {
    const found = this.resolve(targetPath);
    return found && 'path' in found ? found.path : null;
  }
}
