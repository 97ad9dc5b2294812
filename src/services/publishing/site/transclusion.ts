/**
 * Obsidian's note embeds, expanded before a page renders: a line that is only
 * `![[Note]]`, `![[Note#Heading]]` or `![[Note#^block]]` becomes the published note's
 * Markdown (the whole body, the heading's section, or the block) inside
 * `<div class="embed">`. Embeds inside embeds expand too, to {@link MAX_DEPTH} levels; a
 * note already being expanded (a cycle), a missing or unpublished note, an embed past the
 * limits, or one inside a line of text stays a link. Each line is looked at once, each
 * note's body read once, and the total is bounded, so a page of 60,000 embeds costs the
 * same as one of {@link MAX_EMBEDS}.
 */
import {
  maskCode,
  parseWikilink,
  plainHeadingText,
  slugify,
  wikilinkTargetPath,
} from '../../../render/links.js';
import { isFileEmbed } from '../../../render/dialects/index.js';

/** How deep embeds nest. */
export const MAX_DEPTH = 4;
/** Embeds expanded per page, all levels together. */
export const MAX_EMBEDS = 200;
/** Characters an expansion may add to a page. */
const MAX_ADDED = 2_000_000;

const EMBED_LINE = /^ {0,3}!\[\[([^[\]\n]+)\]\][ \t]*$/;

/** Where embedded notes come from: published pages only, resolved as wikilinks are. */
export interface EmbedLookup {
  /** The published page a wikilink target (a workspace path ending in `.md` or `.mdx`) means, or null. */
  resolve(targetPath: string): string | null;
  /** A published page's body. */
  body(path: string): Promise<string>;
}

/** The lines of a heading's section: from the heading to the next one of its level or above. */
function headingSection(lines: string[], masked: string[], anchor: string): string | null {
  const wanted = slugify(anchor);
  for (let i = 0; i < lines.length; i++) {
    const m = /^ {0,3}(#{1,6})[ \t]+(.*)$/.exec(masked[i] ?? '');
    if (!m || slugify(plainHeadingText(m[2] ?? '')) !== wanted) continue;
    const level = m[1]!.length;
    let end = i + 1;
    while (end < lines.length) {
      const h = /^ {0,3}(#{1,6})[ \t]/.exec(masked[end] ?? '');
      if (h && h[1]!.length <= level) break;
      end++;
    }
    return lines.slice(i, end).join('\n');
  }
  return null;
}

/** The block carrying `^id`: its paragraph, or the block above a `^id` line of its own. */
function blockSection(lines: string[], masked: string[], id: string): string | null {
  const mark = `^${id}`;
  for (let i = 0; i < lines.length; i++) {
    const line = (masked[i] ?? '').trimEnd();
    if (line !== mark && !line.endsWith(` ${mark}`)) continue;
    let end = i;
    if (line === mark) {
      end = i - 1;
      while (end >= 0 && !(lines[end] ?? '').trim()) end--;
      if (end < 0) return null;
    }
    let start = end;
    while (start > 0 && (lines[start - 1] ?? '').trim()) start--;
    return lines.slice(start, i + 1).join('\n');
  }
  return null;
}

/** Expands the note embeds of `markdown`, the body of the page at `pagePath` (see the module comment). */
export async function expandNoteEmbeds(
  markdown: string,
  pagePath: string,
  lookup: EmbedLookup,
): Promise<string> {
  if (!markdown.includes('![[')) return markdown;
  const budget = { embeds: MAX_EMBEDS, added: MAX_ADDED };
  const split = new Map<string, { lines: string[]; masked: string[] }>();
  const linesOf = async (path: string) => {
    let entry = split.get(path);
    if (!entry) {
      const body = await lookup.body(path);
      entry = { lines: body.split('\n'), masked: maskCode(body, false).split('\n') };
      split.set(path, entry);
    }
    return entry;
  };

  async function expand(text: string, stack: string[]): Promise<string> {
    if (!text.includes('![[')) return text;
    const lines = text.split('\n');
    const masked = maskCode(text, false).split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (budget.embeds <= 0 || budget.added <= 0) break;
      const m = EMBED_LINE.exec(masked[i] ?? '');
      const parts = m ? parseWikilink(m[1] ?? '') : null;
      if (!parts?.target || isFileEmbed(parts.target)) continue;
      const targetPath = wikilinkTargetPath(parts.target);
      const found = targetPath ? lookup.resolve(targetPath) : null;
      if (!found || stack.includes(found) || stack.length > MAX_DEPTH) continue;
      budget.embeds--;
      const note = await linesOf(found);
      const anchor = parts.anchor;
      const section = !anchor
        ? note.lines.join('\n')
        : anchor.startsWith('^')
          ? blockSection(note.lines, note.masked, anchor.slice(1))
          : headingSection(note.lines, note.masked, anchor);
      if (section === null) continue;
      const inner = await expand(section, [...stack, found]);
      budget.added -= inner.length;
      if (budget.added < 0) break;
      lines[i] = `<div class="embed">\n\n${inner}\n\n</div>`;
    }
    return lines.join('\n');
  }

  return expand(markdown, [pagePath]);
}
