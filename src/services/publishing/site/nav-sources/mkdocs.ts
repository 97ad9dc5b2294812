/**
 * MkDocs: `mkdocs.yml`'s `nav:` (labels, sections, outside links), `docs_dir`, and
 * without `nav:` MkDocs's own folder order (index first, files before folders). The
 * YAML is read leniently: MkDocs configs use tags such as `!!python/name:` and `!ENV`,
 * which are kept as plain values.
 */
import { loadYaml } from '../../../../lib/yaml.js';
import { foldersOutline, indexOrReadme } from './folders.js';
import { dirOf, joinPath, type NavFiles, type Outline, type OutlineItem } from './outline.js';

export const MKDOCS_FILES = ['mkdocs.yml', 'mkdocs.yaml'] as const;

const isUrl = (s: string) => /^[a-z][a-z0-9+.-]*:/i.test(s) || s.startsWith('//');

/** The outline `mkdocs.yml` declares, or null when the workspace has none. */
export async function readMkdocs(files: NavFiles, paths: readonly string[]): Promise<Outline | null> {
  let text: string | null = null;
  let configFile = '';
  for (const name of MKDOCS_FILES) {
    text = await files.readText(name);
    if (text !== null) {
      configFile = name;
      break;
    }
  }
  if (text === null) return null;
  const findings: string[] = [];
  const doc = loadYaml().parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length > 0) {
    findings.push(
      `${configFile} is not valid YAML (${doc.errors[0]!.message.split('\n')[0]}); the sidebar follows the folders`,
    );
  }
  const config = (doc.errors.length === 0 ? doc.toJS({ maxAliasCount: 100 }) : {}) as Record<
    string,
    unknown
  > | null;
  const docsDirRaw = typeof config?.docs_dir === 'string' ? config.docs_dir : 'docs';
  const docsDir = joinPath('', docsDirRaw);
  if (docsDir === null) {
    findings.push(`docs_dir ${docsDirRaw} is outside the workspace`);
    return { source: 'mkdocs', items: [], findings };
  }
  const known = new Set(paths);
  const inDocs = (rel: string) => joinPath(docsDir, rel.split('#')[0]!);

  const convert = (entries: unknown[], where: string): OutlineItem[] => {
    const out: OutlineItem[] = [];
    for (const entry of entries) {
      let label: string | undefined;
      let value: unknown = entry;
      if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
        const pairs = Object.entries(entry as Record<string, unknown>);
        if (pairs.length !== 1) {
          findings.push(`nav ${where}: an entry with ${pairs.length} keys was skipped`);
          continue;
        }
        [label, value] = pairs[0]!;
      }
      if (Array.isArray(value)) {
        const children = convert(value, `${where} › ${label ?? ''}`);
        // MkDocs Material's section index pages: a section's first page being its folder's index.
        const first = children[0];
        const index =
          first?.kind === 'page' && /(^|\/)(index|readme)\.md$/i.test(first.path) && !first.label
            ? first.path
            : undefined;
        out.push({
          kind: 'section',
          label: label ?? '',
          ...(index ? { index } : {}),
          children: index ? children.slice(1) : children,
        });
      } else if (typeof value === 'string') {
        if (isUrl(value)) {
          out.push({ kind: 'link', label: label ?? value, href: value });
          continue;
        }
        const path = inDocs(value);
        if (path === null || !known.has(path)) continue;
        out.push({ kind: 'page', path, ...(label ? { label } : {}) });
      } else {
        findings.push(`nav ${where}: an entry that is neither a page, a section nor a link was skipped`);
      }
    }
    return out;
  };

  const nav = config?.nav;
  if (Array.isArray(nav)) return { source: 'mkdocs', items: convert(nav, 'root'), findings };
  const items = foldersOutline(paths, docsDir, {
    position: () => undefined,
    label: () => undefined,
    indexOf: indexOrReadme,
    order: 'files-first',
  });
  // The docs folder's own index page is the home page, first.
  const home = indexOrReadme(
    docsDir,
    paths.filter((p) => dirOf(p) === docsDir),
  );
  return {
    source: 'mkdocs',
    items: home
      ? [{ kind: 'page', path: home }, ...items.filter((i) => !(i.kind === 'page' && i.path === home))]
      : items,
    findings,
  };
}
