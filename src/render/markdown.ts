/**
 * Markdown → sanitised HTML for published pages, the static export and comments.
 *
 * Pipeline: markdown-it (CommonMark + GFM tables/strikethrough, linkify, footnotes,
 * heading anchors, Folio's plugins) → sanitize-html with a docs allow-list. Raw HTML is
 * allowed in pages because writers expect it (`<details>`, `<kbd>`), so the sanitiser,
 * not the parser, is the security boundary. Relative links and image sources are
 * rewritten during sanitising so raw `<img src>` gets the same treatment as `![]()`.
 */
import MarkdownIt from 'markdown-it';
import type { PluginSimple } from 'markdown-it';
import deflist from 'markdown-it-deflist';
import footnote from 'markdown-it-footnote';
import sanitizeHtml from 'sanitize-html';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { escapeHtml } from './escape.js';
import { headingAnchorPlugin } from './heading-anchors.js';
import { isExternalHref, slugify, splitHref } from './links.js';
import { MKDOCS_CLASS } from './dialects/attr-lists.js';
import type { EmbedOptions } from './dialects/index.js';
import { folioCommentPlugin, folioDocsPlugin, inlineText, type PluginEnv } from './markdown-plugins.js';

/** What a page render may depend on besides its body (see render-cache.ts for keys). */
export interface RenderContext {
  /** Workspace path of the page being rendered, e.g. `guides/setup.md`; relative links resolve from it. */
  pagePath: string;
  /** Href for a wikilink target (a workspace path ending in `.md`), or null when the page is missing. */
  resolveWikilink: (targetPath: string) => string | null;
  /**
   * Rewrites relative `.md` links, relative `uploads/` links and relative image sources,
   * receiving the href as written (percent-encoded). Without it they are left as-is.
   */
  rewriteHref?: (href: string) => string;
  /**
   * When set, a wikilink to a page renders as `open` + label + `close` instead of being
   * resolved now (see deferred-links.ts: rendering in a worker, resolving in the caller).
   */
  deferWikilink?: (targetPath: string, fragment: string) => { open: string; close: string };
  /**
   * HTML for an Obsidian attachment embed `![[name|…]]`: the file found by name across the
   * workspace as an `<img>` or link, or a missing-file mark. Its output is trusted (it is
   * not sanitised again when deferred), so it must escape what it inserts.
   */
  embedFile?: (name: string, options: EmbedOptions) => string;
}

/** One heading of the page; `text` is plain text, `id` the anchor target. */
export interface TocEntry {
  level: number;
  id: string;
  text: string;
}

/** The result of rendering one page body. */
export interface RenderedPage {
  /** Sanitised HTML of the body, safe to embed. */
  html: string;
  /** Every heading except the first h1 (which is `title`), in document order. */
  toc: TocEntry[];
  /** Text of the first h1, when the body has one. */
  title?: string;
  /** Workspace paths (`.md`) of pages linked by wikilinks and relative links, unique, in order. */
  links: string[];
}

/** A configured page renderer; create one per process and reuse it (set-up is the costly part). */
export interface MarkdownRenderer {
  render(body: string, ctx: RenderContext): RenderedPage;
}

// Only common languages: the full highlight.js bundle costs ~190 languages of start-up
// time and memory for fences nobody writes. Aliases (sh, js, ts, py, yml, html, …) come
// with each language.
const LANGUAGES = { bash, css, diff, dockerfile, go, java, javascript, json, markdown, plaintext };
const MORE_LANGUAGES = { python, rust, shell, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries({ ...LANGUAGES, ...MORE_LANGUAGES })) {
  if (!hljs.getLanguage(name)) hljs.registerLanguage(name, language);
}

/**
 * markdown-it `highlight` hook: one themed, keyboard-scrollable `<pre>` for every code
 * block. Unknown languages are escaped as plain text (no auto-detection: it is slow and
 * often wrong) but keep their `language-*` class for client-side tools.
 */
export function highlightCode(code: string, lang: string): string {
  const known = lang ? hljs.getLanguage(lang) : undefined;
  const body = known
    ? hljs.highlight(code, { language: lang, ignoreIllegals: true }).value
    : escapeHtml(code);
  const langClass = lang ? ` language-${escapeHtml(lang.toLowerCase())}` : '';
  return `<pre class="hljs" tabindex="0"><code class="hljs${langClass}">${body}</code></pre>`;
}

const words = (list: string): string[] => list.trim().split(/\s+/);
const HEADINGS = words('h1 h2 h3 h4 h5 h6');
const BLOCK_TAGS = words(`
  p div blockquote pre hr br ul ol li dl dt dd section article figure figcaption details summary
  address aside header footer hgroup table caption colgroup col thead tbody tfoot tr th td`);
const INLINE_TAGS = words(`
  a abbr b bdi bdo cite code data del dfn em i ins kbd mark q rp rt ruby s samp small span strong
  sub sup time u var wbr`);
/** The MathML KaTeX writes (presentation markup and the TeX source as an annotation). */
const MATHML_TAGS = words(`
  math semantics annotation mrow mi mo mn ms mtext mspace msup msub msubsup mfrac msqrt mroot mover munder
  munderover mtable mtr mtd mstyle mpadded mphantom menclose merror`);
const MATHML_ATTRIBUTES = words(`
  xmlns display mathvariant stretchy fence separator lspace rspace accent accentunder columnalign rowspacing
  columnspacing columnlines rowlines width height depth linethickness scriptlevel displaystyle encoding minsize
  maxsize movablelimits notation voffset symmetric largeop`);
/** Classes Folio's own markup and highlight.js emit; user HTML cannot borrow layout classes. */
const ALLOWED_CLASSES: Array<string | RegExp> = [
  ...words(`
    hljs hljs-* language-* code-block code-label callout callout-* footnote* header-anchor md-heading table-wrap task-list-item
    task-list-item-checkbox contains-task-list wikilink wikilink-missing align-left align-center align-right
    tabs tab-panel tab-label tab-selected katex katex-display math-display math-error mermaid embed embed-file`),
  /^[a-z]+_+$/, // highlight.js scope modifiers such as `function_`
  MKDOCS_CLASS, // MkDocs Material's content classes (`md-button`), set by attribute lists
];

function docsSanitizeOptions(rewriteHref?: (href: string) => string): sanitizeHtml.IOptions {
  const rewrite = (value: string | undefined, test: (href: string) => boolean): string | undefined =>
    value && rewriteHref && !isExternalHref(value) && !value.startsWith('#') && test(value)
      ? rewriteHref(value)
      : value;
  return {
    allowedTags: [...HEADINGS, ...BLOCK_TAGS, ...INLINE_TAGS, ...MATHML_TAGS, 'img', 'input'],
    allowedAttributes: {
      ...Object.fromEntries(MATHML_TAGS.map((t) => [t, MATHML_ATTRIBUTES])),
      // Obsidian block ids (`^id`) land on the block they name.
      p: ['id'],
      blockquote: ['id'],
      table: ['id'],
      ul: ['id'],
      ...Object.fromEntries(HEADINGS.map((h) => [h, ['id']])),
      a: ['href', 'name', 'id', 'aria-hidden', 'aria-label', 'rel'],
      img: [
        ...['src', 'alt', 'width', 'height', 'loading', 'decoding'],
        { name: 'align', multiple: false, values: ['left', 'right', 'center'] },
      ],
      div: [{ name: 'role', multiple: false, values: ['note'] }],
      input: ['type', 'checked', 'disabled'],
      pre: ['tabindex'],
      li: ['id', 'value'],
      ol: ['start', 'reversed', 'type', 'id'],
      th: ['colspan', 'rowspan', 'scope'],
      td: ['colspan', 'rowspan'],
      col: ['span'],
      colgroup: ['span'],
      details: ['open'],
      time: ['datetime'],
      data: ['value'],
      '*': ['title', 'lang', 'dir'],
    },
    allowedClasses: { '*': ALLOWED_CLASSES },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    transformTags: {
      // Checkboxes only ever display task state; they must never become form fields.
      input: (_tag, attribs) => ({
        tagName: 'input',
        attribs: {
          type: 'checkbox',
          disabled: '',
          ...('checked' in attribs ? { checked: '' } : {}),
          ...(attribs.class ? { class: attribs.class } : {}),
        },
      }),
      img: (_tag, attribs) => ({
        tagName: 'img',
        attribs: {
          ...attribs,
          src: rewrite(attribs.src, () => true) ?? '',
          loading: 'lazy',
          decoding: 'async',
        },
      }),
      // Rewriting here rather than on tokens covers raw HTML links and images too, and
      // happens exactly once per attribute.
      // Every relative href goes through `rewriteHref`: pages, uploads and any other file of
      // the repository the site serves (an attachment, a PDF beside the page).
      a: (_tag, attribs) => {
        const isWikilink = /\bwikilink\b/.test(attribs.class ?? '');
        const href = isWikilink ? attribs.href : rewrite(attribs.href, (h) => splitHref(h).path !== '');
        return { tagName: 'a', attribs: href === undefined ? attribs : { ...attribs, href } };
      },
    },
  };
}

/** Comments: no raw HTML or images; links marked as user-generated so they pass no ranking. */
const COMMENT_SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...HEADINGS, ...BLOCK_TAGS.filter((t) => t !== 'section'), ...INLINE_TAGS, 'input'],
  allowedAttributes: { a: ['href', 'rel'], input: ['type', 'checked', 'disabled'], pre: ['tabindex'] },
  allowedClasses: { '*': ALLOWED_CLASSES },
  allowedSchemes: ['http', 'https', 'mailto'],
  transformTags: {
    // Comments sit inside a page: keep their headings below the page's own outline.
    h1: 'h4',
    h2: 'h4',
    h3: 'h4',
    a: (_tag, attribs) => ({ tagName: 'a', attribs: { ...attribs, rel: 'nofollow noopener ugc' } }),
  },
};

function createMarkdownIt(html: boolean): MarkdownIt {
  const md = new MarkdownIt('default', { html, linkify: true, typographer: false, highlight: highlightCode });
  // Only URLs with a scheme: fuzzy matching turns file names into links (README.md and
  // setup.sh are Moldovan and Saint Helenian domains to linkify-it).
  md.linkify.set({ fuzzyLink: false });
  return md;
}

function wrapCodeBlocks(md: MarkdownIt): void {
  // Indented code blocks get the same focusable, themed <pre> as fences.
  md.renderer.rules.code_block = (tokens, idx) => highlightCode(tokens[idx]?.content ?? '', '') + '\n';
}

/**
 * Pages frame each code block with a header naming its language (the fence's info
 * string as written). The site's script adds a Copy button to every frame, so readers
 * without JavaScript see the label and no control that does nothing.
 */
function frameCodeBlocks(md: MarkdownIt): void {
  const frame = (pre: string, lang: string): string =>
    `<div class="code-block">${lang ? `<div class="code-label">${escapeHtml(lang)}</div>` : ''}${pre.trimEnd()}</div>\n`;
  const fence = md.renderer.rules.fence;
  const codeBlock = md.renderer.rules.code_block;
  if (!fence || !codeBlock) return;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const lang = (tokens[idx]?.info ?? '').trim().split(/\s+/)[0] ?? '';
    // A diagram's source, drawn by the site's Mermaid script; read as code without it.
    if (lang.toLowerCase() === 'mermaid')
      return `<pre class="mermaid">${escapeHtml(tokens[idx]?.content ?? '')}</pre>\n`;
    return frame(fence(tokens, idx, options, env, self), lang);
  };
  md.renderer.rules.code_block = (tokens, idx, options, env, self) =>
    frame(codeBlock(tokens, idx, options, env, self), '');
}

/**
 * Creates the page renderer. Build one per process and share it: set-up (plugins,
 * rules) is the costly part, and all per-render state lives in markdown-it's `env`.
 */
export function createRenderer(): MarkdownRenderer {
  const md = createMarkdownIt(true);
  // @types/markdown-it-footnote is typed against markdown-it's CJS typings; same runtime object.
  md.use(footnote as unknown as PluginSimple);
  md.use(deflist);
  md.use(folioDocsPlugin);
  headingAnchorPlugin(md, { slugify, headingText: (children) => inlineText(children).trim() });
  const footnoteAnchor = md.renderer.rules.footnote_anchor;
  if (footnoteAnchor) {
    md.renderer.rules.footnote_anchor = (...args) =>
      footnoteAnchor(...args).replace(
        'class="footnote-backref"',
        'class="footnote-backref" aria-label="Back to text"',
      );
  }
  wrapCodeBlocks(md);
  frameCodeBlocks(md);

  return {
    render(body: string, ctx: RenderContext): RenderedPage {
      const env: PluginEnv = {
        pagePath: ctx.pagePath,
        resolveWikilink: ctx.resolveWikilink,
        ...(ctx.deferWikilink ? { deferWikilink: ctx.deferWikilink } : {}),
        ...(ctx.embedFile ? { embedFile: ctx.embedFile } : {}),
      };
      const tokens = md.parse(body, env);
      const toc: TocEntry[] = [];
      let title: string | undefined;
      tokens.forEach((token, i) => {
        if (token.type !== 'heading_open') return;
        const level = Number(token.tag.slice(1));
        const text = inlineText(tokens[i + 1]?.children ?? null).trim();
        if (level === 1 && title === undefined) title = text;
        else toc.push({ level, id: token.attrGet('id') ?? slugify(text), text });
      });
      const html = sanitizeHtml(
        md.renderer.render(tokens, md.options, env),
        docsSanitizeOptions(ctx.rewriteHref),
      );
      return { html, toc, ...(title === undefined ? {} : { title }), links: env.links ?? [] };
    },
  };
}

let commentMd: MarkdownIt | undefined;

/**
 * Renders a comment body: CommonMark with GFM tables, strikethrough, task lists and
 * linkified URLs; no raw HTML, no images; links get `rel="nofollow noopener ugc"`.
 */
export function renderCommentBody(markdown: string): string {
  if (!commentMd) {
    commentMd = createMarkdownIt(false).disable('image');
    commentMd.use(folioCommentPlugin);
    wrapCodeBlocks(commentMd);
  }
  return sanitizeHtml(commentMd.render(markdown), COMMENT_SANITIZE_OPTIONS);
}
