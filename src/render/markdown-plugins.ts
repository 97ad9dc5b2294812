/**
 * Folio's own markdown-it extensions: task lists, callouts (GitHub `> [!NOTE]` and
 * `:::note` containers), wikilinks, table alignment classes and link collection.
 * Internal to `src/render/`; `markdown.ts` is the public entry point.
 */
import type MarkdownIt from 'markdown-it';
import type { PluginWithParams, RendererRule, StateCore, StateInline, Token } from 'markdown-it';
import container from 'markdown-it-container';
import { calloutDefaultTitle, calloutKind, type EmbedOptions } from './dialects/index.js';
import { dialectsPlugin } from './dialects/plugin.js';
import { escapeHtml } from './escape.js';
import {
  isPageHref,
  parseWikilink,
  resolveRelativeHref,
  slugify,
  wikilinkTargetPath,
  type WikilinkParts,
} from './links.js';
import { stripPageExtension } from '../domain/page-extensions.js';

/** What the render rules read from markdown-it's per-render `env`. */
export interface PluginEnv {
  pagePath?: string;
  resolveWikilink?: (targetPath: string) => string | null;
  /** Replaces `resolveWikilink` when set: see `RenderContext.deferWikilink`. */
  deferWikilink?: (targetPath: string, fragment: string) => { open: string; close: string };
  /** Filled by the renderer: workspace paths of the pages this body links to. */
  links?: string[];
  /**
   * HTML for an attachment embed `![[name]]` (an `<img>`, a link, or a missing-file mark),
   * or a marker standing for it when rendering in a worker. Without it the embed shows as missing.
   */
  embedFile?: (name: string, options: EmbedOptions) => string;
}

const CALLOUT_TITLES: Record<string, string> = {
  note: 'Note',
  tip: 'Tip',
  important: 'Important',
  warning: 'Warning',
  caution: 'Caution',
  danger: 'Danger',
  info: 'Info',
};

/** Opening markup of every callout, so both syntaxes produce identical HTML. */
export function calloutOpen(kind: string, title?: string): string {
  const heading = title?.trim() || CALLOUT_TITLES[kind] || kind;
  return `<div class="callout callout-${kind}" role="note"><p class="callout-title">${escapeHtml(heading)}</p>\n`;
}

/** What a callout token carries: its style, title and fold (`''` fixed, `-` folded, `+` open). */
interface CalloutMeta {
  kind: string;
  written?: string;
  title: string;
  /** False for MkDocs' `!!! note ""`: no title bar at all. */
  titled?: boolean;
  fold?: '' | '-' | '+';
}

/**
 * Opening markup of any callout. A foldable one (Obsidian `[!tip]-`/`+`, MkDocs `???`/`???+`)
 * is a `<details>` whose summary is the title, so it folds without JavaScript.
 */
function calloutOpenFor(meta: CalloutMeta): string {
  const kind = calloutKind(meta.kind);
  const title = meta.title.trim() || (meta.written ? calloutDefaultTitle(meta.written) : '');
  if (meta.fold === '-' || meta.fold === '+') {
    const heading = escapeHtml(title || CALLOUT_TITLES[kind] || kind);
    return `<details class="callout callout-${kind}"${meta.fold === '+' ? ' open' : ''}><summary class="callout-title">${heading}</summary>\n`;
  }
  if (meta.titled === false) return `<div class="callout callout-${kind}" role="note">\n`;
  return calloutOpen(kind, title);
}

const calloutClose = (meta: CalloutMeta | null | undefined): string =>
  meta?.fold === '-' || meta?.fold === '+' ? '</details>\n' : '</div>\n';

/** Core rule (before inline parsing): `- [ ] item` / `- [x] item` become disabled checkboxes. */
function taskLists(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i];
    const item = tokens[i - 2];
    if (
      inline?.type !== 'inline' ||
      tokens[i - 1]?.type !== 'paragraph_open' ||
      item?.type !== 'list_item_open'
    )
      continue;
    const m = /^\[([ xX])\](?:[ \t]+|(?=\n))/.exec(inline.content);
    if (!m) continue;
    inline.content = inline.content.slice(m[0].length);
    const box = new state.Token('task_checkbox', 'input', 0);
    box.meta = { checked: m[1] !== ' ' };
    tokens.splice(i, 0, box);
    i++;
    item.attrJoin('class', 'task-list-item');
    for (let j = i - 3; j >= 0; j--) {
      const list = tokens[j];
      if (list && list.level === item.level - 1 && list.nesting === 1) {
        if (list.type === 'bullet_list_open' || list.type === 'ordered_list_open')
          if (!list.attrGet('class')?.includes('contains-task-list'))
            list.attrJoin('class', 'contains-task-list');
        break;
      }
    }
  }
}

// GitHub's five alerts and Obsidian's callouts (any type, optionally foldable with `-` or `+`).
const GFM_CALLOUT = /^\[!([A-Za-z][\w-]{0,30})\]([+-]?)[ \t]*([^\n]*)(?:\n|$)/;

/**
 * Core rule (before inline parsing): a blockquote whose first line is `[!NOTE]` etc.
 * becomes a callout. Text after the marker on the same line is a custom title.
 */
function gfmCallouts(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i];
    const inline = tokens[i + 2];
    if (
      open?.type !== 'blockquote_open' ||
      tokens[i + 1]?.type !== 'paragraph_open' ||
      inline?.type !== 'inline'
    )
      continue;
    const m = GFM_CALLOUT.exec(inline.content);
    if (!m) continue;
    open.type = 'callout_open';
    open.tag = 'div';
    const written = m[1] ?? 'note';
    const meta: CalloutMeta = {
      kind: calloutKind(written),
      written,
      title: m[3] ?? '',
      fold: (m[2] ?? '') as CalloutMeta['fold'],
    };
    open.meta = meta;
    for (let j = i + 1; j < tokens.length; j++) {
      const close = tokens[j];
      if (close?.type === 'blockquote_close' && close.level === open.level) {
        close.type = 'callout_close';
        close.tag = 'div';
        close.meta = meta;
        break;
      }
    }
    inline.content = inline.content.slice(m[0].length);
    if (!inline.content.trim()) tokens.splice(i + 1, 3);
  }
}

/** Where the last search for `]]` in each inline source ended (-1: there is none after it). */
const wikilinkCloseCache = new WeakMap<StateInline, { from: number; at: number }>();

/**
 * The first `]]` at or after `from`. One line of `[[[[…` would otherwise search to its
 * end from every bracket; a close found once answers every later start before it.
 */
function nextWikilinkClose(state: StateInline, from: number): number {
  const cached = wikilinkCloseCache.get(state);
  if (cached && cached.from <= from && (cached.at === -1 || cached.at >= from)) return cached.at;
  const at = state.src.indexOf(']]', from);
  wikilinkCloseCache.set(state, { from, at });
  return at;
}

/** Inline rule: `[[target]]`, `[[target|label]]`, `[[target#heading]]`, `[[#heading]]`. */
function wikilinkRule(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x5b || state.src.charCodeAt(start + 1) !== 0x5b) return false;
  // Inside a link's label a wikilink would nest <a> in <a>; leave it as text there.
  if (((state as StateInline & { linkLevel?: number }).linkLevel ?? 0) > 0) return false;
  const end = nextWikilinkClose(state, start + 2);
  if (end === -1 || end > state.posMax) return false;
  const parts = parseWikilink(state.src.slice(start + 2, end));
  if (!parts || (parts.target && !wikilinkTargetPath(parts.target))) return false;
  if (!silent) {
    const token = state.push('wikilink', '', 0);
    token.meta = parts;
    token.content = state.src.slice(start, end + 2);
  }
  state.pos = end + 2;
  return true;
}

/** Label shown for a wikilink without `|label`: the target as written, minus `.md` or `.mdx`. */
function wikilinkLabel({ target, anchor, label }: WikilinkParts): string {
  if (label) return label;
  const page = stripPageExtension(target);
  return anchor ? (page ? `${page}#${anchor}` : anchor) : page;
}

/**
 * The `#fragment` of a wikilink anchor: a heading's slug, or an Obsidian block id
 * (`^id`) as it is, since blocks carry `id="^id"`.
 */
export function anchorFragment(anchor: string | null): string {
  if (!anchor) return '';
  return /^\^[A-Za-z0-9-]+$/.test(anchor) ? `#${anchor}` : `#${slugify(anchor)}`;
}

/** Plain text of inline tokens, as used for heading ids and the table of contents. */
export function inlineText(children: Token[] | null): string {
  let text = '';
  for (const child of children ?? []) {
    if (child.type === 'text' || child.type === 'code_inline') text += child.content;
    else if (child.type === 'wikilink') text += wikilinkLabel(child.meta as WikilinkParts);
    else if (child.type === 'image') text += inlineText(child.children);
  }
  return text;
}

/**
 * Core rule: table alignment moves from `style` to classes, because the published
 * site's CSP forbids inline style attributes (and the sanitiser drops them).
 */
function tableAlignClasses(state: StateCore): void {
  for (const token of state.tokens) {
    if (token.type !== 'th_open' && token.type !== 'td_open') continue;
    const align = /text-align:\s*(left|right|center)/.exec(token.attrGet('style') ?? '');
    if (!align) continue;
    token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
    token.attrJoin('class', `align-${align[1]}`);
  }
}

/** Core rule (last): records the pages this body links to in `env.links`. */
function collectLinks(state: StateCore): void {
  const env = state.env as PluginEnv;
  const links = new Set<string>();
  for (const token of state.tokens) {
    if (token.type !== 'inline' || !env.pagePath) continue;
    for (const child of token.children ?? []) {
      if (child.type === 'wikilink') {
        const target = (child.meta as WikilinkParts).target;
        const path = target ? wikilinkTargetPath(target) : null;
        if (path) links.add(path);
      } else if (child.type === 'link_open') {
        const href = child.attrGet('href') ?? '';
        const path = isPageHref(href) ? resolveRelativeHref(env.pagePath, href) : null;
        if (path) links.add(path);
      }
    }
  }
  env.links = [...links];
}

const renderCheckbox: RendererRule = (tokens, idx) =>
  `<input class="task-list-item-checkbox" type="checkbox" disabled${tokens[idx]?.meta?.checked ? ' checked' : ''}> `;

/** Wide tables scroll inside a wrapper instead of widening the page. */
function wrapTables(md: MarkdownIt): void {
  md.renderer.rules.table_open = (tokens, idx, options, _env, self) =>
    `<div class="table-wrap">\n${self.renderToken(tokens, idx, options)}`;
  md.renderer.rules.table_close = (tokens, idx, options, _env, self) =>
    `${self.renderToken(tokens, idx, options)}</div>\n`;
}

/** Installs every Folio rule that documentation pages use. */
export function folioDocsPlugin(md: MarkdownIt): void {
  wrapTables(md);
  md.core.ruler.after('block', 'folio_task_lists', taskLists);
  md.core.ruler.after('block', 'folio_gfm_callouts', gfmCallouts);
  md.inline.ruler.before('link', 'wikilink', wikilinkRule);
  md.core.ruler.push('folio_table_align', tableAlignClasses);
  md.core.ruler.push('folio_links', collectLinks);

  md.renderer.rules.task_checkbox = renderCheckbox;
  md.renderer.rules.callout_open = (tokens, idx) => calloutOpenFor(tokens[idx]?.meta as CalloutMeta);
  md.renderer.rules.callout_close = (tokens, idx) => calloutClose(tokens[idx]?.meta as CalloutMeta | null);
  dialectsPlugin(md);
  md.renderer.rules.folio_embed_file = (tokens, idx, _options, env: PluginEnv) => {
    const { name, options } = tokens[idx]?.meta as { name: string; options: EmbedOptions };
    return env.embedFile
      ? env.embedFile(name, options)
      : `<span class="wikilink-missing" title="Missing file: ${escapeHtml(name)}">${escapeHtml(name)}</span>`;
  };

  // @types/markdown-it-container is typed against markdown-it's CJS typings; same runtime object.
  md.use(container as unknown as PluginWithParams, 'callout', {
    validate: (params: string) =>
      /^(note|tip|info|warning|danger|important|caution)(?:[\s[]|$)/i.test(params.trim()),
    render: (tokens: Token[], idx: number) => {
      const token = tokens[idx];
      if (token?.nesting !== 1) return '</div>\n';
      // Docusaurus 2 writes `:::tip Title`, Docusaurus 3 `:::tip[Title]`.
      const [, kind = 'note', bracketed, title] =
        /^([a-z]+)(?:\[([^\]]*)\])?\s*(.*)$/i.exec(token.info.trim()) ?? [];
      return calloutOpen(kind.toLowerCase(), bracketed ?? title);
    },
  });

  md.renderer.rules.wikilink = (tokens, idx, _options, env: PluginEnv) => {
    const parts = tokens[idx]?.meta as WikilinkParts;
    const label = escapeHtml(wikilinkLabel(parts));
    const fragment = anchorFragment(parts.anchor);
    if (!parts.target) return `<a class="wikilink" href="${escapeHtml(fragment)}">${label}</a>`;
    const path = wikilinkTargetPath(parts.target) ?? parts.target;
    if (env.deferWikilink) {
      const { open, close } = env.deferWikilink(path, fragment);
      return `${open}${label}${close}`;
    }
    const href = env.resolveWikilink?.(path) ?? null;
    if (href === null)
      return `<span class="wikilink-missing" title="Missing page: ${escapeHtml(path)}">${label}</span>`;
    return `<a class="wikilink" href="${escapeHtml(href + fragment)}">${label}</a>`;
  };
}

/** What comments get besides CommonMark and GFM: task lists and the table layout, nothing page-specific. */
export function folioCommentPlugin(md: MarkdownIt): void {
  wrapTables(md);
  md.core.ruler.after('block', 'folio_task_lists', taskLists);
  md.core.ruler.push('folio_table_align', tableAlignClasses);
  md.renderer.rules.task_checkbox = renderCheckbox;
}
