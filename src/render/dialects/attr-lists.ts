/**
 * MkDocs attribute lists (Python-Markdown's `attr_list`): `[Get started](setup.md){ .md-button }`,
 * `![Screen](screen.png){ width="300" }`, `## Install { #setup }` and a paragraph's last line
 * `{: .note }`. The list is read and removed from the text; of its attributes only those a
 * page may carry survive: an id, class names of the `md-` family (MkDocs Material's
 * buttons and the like, which Folio's themes style), an image's width, height and
 * alignment. Anything else is dropped, and the sanitiser checks the result again.
 *
 * A list is recognised only when every part of it is an attribute (`#id`, `.class`,
 * `key=value`), so prose such as `{name}` after a link stays as written. Each text is
 * scanned once, so the work is linear in the page.
 */
import type MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';

/** Classes an attribute list may set: MkDocs Material's `md-` names, never Folio's own `md-heading`. */
export const MKDOCS_CLASS = /^md-[a-z0-9]+(?:-{1,2}[a-z0-9]+)*$/;
const SAFE_ID = /^[A-Za-z0-9][\w.-]{0,99}$/;
const SIZE = /^(\d{1,5})(?:px)?$/;
const ALIGN = new Set(['left', 'right', 'center']);
/** One part of a list: `#id`, `.class`, or `key=value` with the value quoted or bare. */
const PART = /\s*(?:#([^\s}#.="']+)|\.([^\s}#.="']+)|([A-Za-z][\w-]*)=(?:"([^"]*)"|'([^']*)'|([^\s"'}]+)))/y;

const SPACES = /\s*$/y;

/** The attributes of a list's inside (between the braces), or null when it is not a list. */
export function parseAttrList(inner: string): Array<[string, string]> | null {
  const text = inner.startsWith(':') ? inner.slice(1) : inner;
  if (text.trim() === '') return null;
  const attrs: Array<[string, string]> = [];
  let at = 0;
  while (at < text.length) {
    PART.lastIndex = at;
    const m = PART.exec(text);
    if (!m) {
      // Only spaces may follow the last part.
      SPACES.lastIndex = at;
      if (SPACES.test(text)) break;
      return null;
    }
    at = PART.lastIndex;
    if (m[1] !== undefined) attrs.push(['id', m[1]]);
    else if (m[2] !== undefined) attrs.push(['class', m[2]]);
    else attrs.push([m[3]!.toLowerCase(), m[4] ?? m[5] ?? m[6] ?? '']);
  }
  return attrs;
}

/** Sets on `token` the attributes it may carry; the rest are dropped. */
function applyAttrs(token: Token, attrs: Array<[string, string]>): void {
  const isImage = token.type === 'image';
  for (const [name, value] of attrs) {
    if (name === 'class') {
      if (MKDOCS_CLASS.test(value) && value !== 'md-heading') token.attrJoin('class', value);
    } else if (name === 'id') {
      if (SAFE_ID.test(value) && !isImage) token.attrSet('id', value);
    } else if ((name === 'width' || name === 'height') && isImage) {
      const size = SIZE.exec(value)?.[1];
      if (size) token.attrSet(name, size);
    } else if (name === 'align' && isImage && ALIGN.has(value.toLowerCase())) {
      token.attrSet('align', value.toLowerCase());
    }
  }
}

/** `{…}` at the start of `text`: the list's attributes and its length, or null. */
function leadingList(text: string): { attrs: Array<[string, string]>; length: number } | null {
  if (text[0] !== '{') return null;
  const end = text.indexOf('}');
  if (end === -1 || text.lastIndexOf('\n', end) !== -1) return null;
  const attrs = parseAttrList(text.slice(1, end));
  return attrs ? { attrs, length: end + 1 } : null;
}

/** `{…}` closing `text` (spaces after it allowed): the list's attributes and where it starts, or null. */
function trailingList(text: string): { attrs: Array<[string, string]>; start: number } | null {
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith('}')) return null;
  const start = trimmed.lastIndexOf('{');
  if (start === -1) return null;
  const attrs = parseAttrList(trimmed.slice(start + 1, -1));
  return attrs ? { attrs, start } : null;
}

/** Lists right after a link or an image, inside one inline run. */
function inlineLists(children: Token[]): void {
  for (let i = 1; i < children.length; i++) {
    const text = children[i]!;
    const before = children[i - 1]!;
    if (text.type !== 'text' || (before.type !== 'link_close' && before.type !== 'image')) continue;
    const list = leadingList(text.content);
    if (!list) continue;
    let target: Token | undefined = before;
    if (before.type === 'link_close') {
      // The link_open this closes: the nearest one before it at the same nesting.
      let depth = 0;
      for (let j = i - 1; j >= 0; j--) {
        const t = children[j]!;
        if (t.type === 'link_close') depth++;
        else if (t.type === 'link_open' && --depth === 0) {
          target = t;
          break;
        }
      }
    }
    if (target && target.type !== 'link_close') applyAttrs(target, list.attrs);
    text.content = text.content.slice(list.length);
  }
}

/** A heading's trailing list, or a paragraph's last line made of one list. */
function blockList(open: Token, inline: Token): void {
  const children = inline.children ?? [];
  const last = children[children.length - 1];
  if (last?.type !== 'text') return;
  if (open.type === 'heading_open') {
    const list = trailingList(last.content);
    if (!list) return;
    applyAttrs(open, list.attrs);
    last.content = last.content.slice(0, list.start).trimEnd();
    return;
  }
  // A paragraph: the list is its last line on its own, after a line break.
  const previous = children[children.length - 2];
  if (previous?.type !== 'softbreak') return;
  const list = leadingList(last.content.trim());
  if (!list || list.length !== last.content.trim().length) return;
  applyAttrs(open, list.attrs);
  children.splice(children.length - 2, 2);
}

function attrLists(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type !== 'inline' || !token.content.includes('{') || !token.children) continue;
    inlineLists(token.children);
    const open = tokens[i - 1];
    if (open && (open.type === 'heading_open' || open.type === 'paragraph_open')) blockList(open, token);
  }
}

/** Reads attribute lists after inline parsing, before heading ids are given out. */
export function attrListsPlugin(md: MarkdownIt): void {
  md.core.ruler.after('inline', 'folio_attr_lists', attrLists);
}
