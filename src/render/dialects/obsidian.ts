/**
 * Obsidian's own syntax inside a page: `![[file.png]]` / `![[file.png|300]]` embeds of
 * attachments (found by file name anywhere in the vault, resolved outside the worker
 * through `env.embedFile`), note embeds that were not expanded before rendering (shown as
 * links), and block ids: `^id` at the end of a paragraph or list item, or alone on the
 * line after a table, list or quote, becomes that block's `id="^id"`, which
 * `[[Note#^id]]` links to.
 */
import type MarkdownIt from 'markdown-it';
import type { StateCore, StateInline, Token } from 'markdown-it';
import { parseWikilink } from '../links.js';
import { isPagePath } from '../../domain/page-extensions.js';

/** Size and alt text of an attachment embed: `|300`, `|300x200` or `|alt text`. */
export interface EmbedOptions {
  width?: number;
  height?: number;
  alt?: string;
}

/** File extensions Obsidian shows inline as images. */
export const IMAGE_EXTENSIONS = /\.(?:png|jpe?g|gif|svg|webp|avif|bmp)$/i;

/** True when an embed target names a file other than a note (`x.png`, `x.pdf`, not `x`, `x.md` or `x.mdx`). */
export function isFileEmbed(target: string): boolean {
  return /\.[a-z0-9]{1,8}$/i.test(target) && !isPagePath(target);
}

/** Parses the `|…` of an attachment embed. */
export function embedOptions(label: string | null): EmbedOptions {
  if (!label) return {};
  const size = /^(\d{1,5})(?:x(\d{1,5}))?$/.exec(label.trim());
  if (size) return { width: Number(size[1]), ...(size[2] ? { height: Number(size[2]) } : {}) };
  return { alt: label };
}

function embedRule(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  const src = state.src;
  if (
    src.charCodeAt(start) !== 0x21 ||
    src.charCodeAt(start + 1) !== 0x5b ||
    src.charCodeAt(start + 2) !== 0x5b
  )
    return false;
  if (((state as StateInline & { linkLevel?: number }).linkLevel ?? 0) > 0) return false;
  // The closing `]]` must come before the next `[` or line end: bounded by what follows,
  // and a failed attempt leaves the text to the other rules.
  let end = start + 3;
  while (end < state.posMax) {
    const c = src.charCodeAt(end);
    if (c === 0x5d || c === 0x5b || c === 0x0a) break;
    end++;
  }
  if (src.charCodeAt(end) !== 0x5d || src.charCodeAt(end + 1) !== 0x5d) return false;
  const parts = parseWikilink(src.slice(start + 3, end));
  if (!parts?.target) return false;
  if (!silent) {
    if (isFileEmbed(parts.target)) {
      const token = state.push('folio_embed_file', '', 0);
      token.meta = { name: parts.target, options: embedOptions(parts.label) };
    } else {
      // A note embed left for the renderer: a link to the note (or block) it names.
      const token = state.push('wikilink', '', 0);
      token.meta = parts;
      token.content = src.slice(start, end + 2);
    }
  }
  state.pos = end + 2;
  return true;
}

const BLOCK_ID_END = /(?:^|[ \t])\^([A-Za-z0-9-]{1,64})$/;
const BLOCK_ID_ONLY = /^\^([A-Za-z0-9-]{1,64})$/;

/** Core rule: block ids (see the module comment), in one pass over the tokens. */
function blockIds(state: StateCore): void {
  const tokens = state.tokens;
  const opens: Token[] = [];
  let lastClosed: Token | null = null;
  const drop: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.nesting === 1) opens.push(token);
    else if (token.nesting === -1) lastClosed = opens.pop() ?? null;
    if (token.type !== 'inline' || !token.children?.length) continue;
    const last = token.children[token.children.length - 1]!;
    if (last.type !== 'text') continue;
    const open = tokens[i - 1];
    const only = token.children.length === 1 ? BLOCK_ID_ONLY.exec(last.content.trim()) : null;
    if (
      only &&
      open?.type === 'paragraph_open' &&
      !open.hidden &&
      lastClosed &&
      tokens[i - 2]?.nesting === -1
    ) {
      // `^id` alone after a table, list or quote names that block.
      lastClosed.attrSet('id', `^${only[1]}`);
      drop.push(i - 1);
      continue;
    }
    const m = BLOCK_ID_END.exec(last.content);
    if (!m || !open) continue;
    last.content = last.content.slice(0, m.index).trimEnd();
    const target = open.hidden && tokens[i - 2]?.type === 'list_item_open' ? tokens[i - 2]! : open;
    target.attrSet('id', `^${m[1]}`);
  }
  // Standalone `^id` paragraphs: open, inline and close go (back to front keeps indices valid).
  for (const at of drop.reverse()) tokens.splice(at, 3);
}

/** Installs Obsidian's embeds and block ids. */
export function obsidianPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('link', 'folio_embed', embedRule);
  md.core.ruler.push('folio_block_ids', blockIds);
}
