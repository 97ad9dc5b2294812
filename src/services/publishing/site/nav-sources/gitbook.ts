/**
 * GitBook: `SUMMARY.md` (or the file `.gitbook.yaml`'s `structure.summary` names, under
 * its `root`): `##` headings are groups, list items link pages, and an item with nested
 * items is a section whose page is its own link.
 */
import { loadYaml } from '../../../../lib/yaml.js';
import { joinPath, type NavFiles, type Outline, type OutlineItem } from './outline.js';

export const GITBOOK_MARKERS = ['SUMMARY.md', '.gitbook.yaml'];

const ITEM_RE = /^(\s*)[*+-]\s+\[([^\]]*)\]\(\s*<?([^)>\s]*)>?(?:\s+"[^"]*")?\s*\)/;
const HEADING_RE = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

/** The outline GitBook shows, or null without a SUMMARY.md. */
export async function readGitbook(files: NavFiles, paths: readonly string[]): Promise<Outline | null> {
  const findings: string[] = [];
  let root = '';
  let summaryName = 'SUMMARY.md';
  const config = await files.readText('.gitbook.yaml');
  if (config !== null) {
    // Loaded outside the try: only the file's own faults make it unreadable.
    const { parse } = loadYaml();
    try {
      const parsed = parse(config) as { root?: unknown; structure?: { summary?: unknown } } | null;
      if (typeof parsed?.root === 'string') root = joinPath('', parsed.root) ?? '';
      if (typeof parsed?.structure?.summary === 'string') summaryName = parsed.structure.summary;
    } catch {
      findings.push('.gitbook.yaml could not be read');
    }
  }
  const summaryPath = joinPath(root, summaryName);
  const text = summaryPath === null ? null : await files.readText(summaryPath);
  if (text === null)
    return config === null
      ? null
      : { source: 'gitbook', items: [], findings: [...findings, `${summaryName} is missing`] };

  const known = new Set(paths);
  const top: OutlineItem[] = [];
  let group: OutlineItem[] = top;
  // The open list items by indentation, so nested items land in their parent.
  let stack: Array<{ indent: number; children: OutlineItem[]; item: OutlineItem }> = [];
  let inFence = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = HEADING_RE.exec(line);
    if (heading) {
      // The `# Summary` title is not a group; `##` headings are.
      if (heading[1]!.length === 1) continue;
      const section: OutlineItem = { kind: 'section', label: heading[2]!, children: [] };
      top.push(section);
      group = section.children;
      stack = [];
      continue;
    }
    const m = ITEM_RE.exec(line);
    if (!m) continue;
    const indent = m[1]!.replace(/\t/g, '    ').length;
    const label = m[2]!.trim();
    const target = m[3]!;
    while (stack.length && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    let item: OutlineItem;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) item = { kind: 'link', label, href: target };
    else {
      let decoded = target.split('#')[0]!;
      try {
        decoded = decodeURIComponent(decoded);
      } catch {
        // kept as written
      }
      const path = joinPath(root, decoded);
      if (path === null || !known.has(path)) {
        if (path !== null && !path.endsWith('.md')) findings.push(`${summaryName}: ${target} is not a page`);
        item = { kind: 'section', label, children: [] };
      } else item = { kind: 'page', path, ...(label ? { label } : {}) };
    }
    const into = parent ? childrenOf(parent) : group;
    into.push(item);
    stack.push({ indent, children: [], item });
  }
  return { source: 'gitbook', items: prune(top), findings };

  /** A page item that gains children becomes a section with that page as its own. */
  function childrenOf(entry: { item: OutlineItem }): OutlineItem[] {
    if (entry.item.kind === 'section') return entry.item.children;
    if (entry.item.kind === 'page') {
      const page = { ...entry.item };
      const section = entry.item as unknown as Record<string, unknown>;
      // Turned in place so the list that holds it keeps its position.
      for (const k of Object.keys(section)) delete section[k];
      Object.assign(section, { kind: 'section', label: page.label ?? '', index: page.path, children: [] });
      return (section as unknown as { children: OutlineItem[] }).children;
    }
    return [];
  }
}

/** Sections left empty by links to missing pages are dropped. */
function prune(items: OutlineItem[]): OutlineItem[] {
  return items.flatMap((item): OutlineItem[] => {
    if (item.kind !== 'section') return [item];
    const children = prune(item.children);
    return children.length || item.index ? [{ ...item, children }] : [];
  });
}
