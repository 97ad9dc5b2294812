/**
 * The text a reader sees on a rendered page, without Markdown syntax: what search indexes
 * and quotes in its snippets. Headings lose their `#`s, links and wikilinks keep their
 * labels, images their alt text, code blocks their code (not the fence or its language);
 * raw HTML keeps its text only. Blocks are separated by blank lines so words never join.
 */
import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { folioDocsPlugin, inlineText } from './markdown-plugins.js';
import { ICON_SHORTCODE } from './dialects/index.js';

let parser: MarkdownIt | undefined;

function markdownParser(): MarkdownIt {
  // Parsing only (nothing is rendered): the page renderer's syntax, without its highlighter.
  parser ??= new MarkdownIt('default', { html: true, linkify: false }).use(folioDocsPlugin);
  return parser;
}

function htmlText(html: string): string {
  return html.replace(/<[^<>]*>/g, ' ');
}

/** A block token's text as a reader sees it; null for tokens that hold none (openers, closers). */
export function blockText(token: Token): string | null {
  switch (token.type) {
    case 'inline':
      // Line breaks and raw inline HTML separate words; everything else is as inlineText reads it.
      return (token.children ?? [])
        .map((child) =>
          child.type === 'softbreak' || child.type === 'hardbreak' || child.type === 'html_inline'
            ? ' '
            : child.type === 'math_inline'
              ? child.content
              : inlineText([child]),
        )
        .join('');
    case 'fence':
    case 'code_block':
      return token.content;
    case 'html_block':
      return htmlText(token.content);
    // Callout titles and tab labels are text the reader sees; math is searchable as its TeX.
    case 'callout_open':
      return (token.meta as { title?: string } | null)?.title ?? null;
    case 'folio_tab_open': {
      const meta = token.meta as { label?: string; markdown?: boolean } | null;
      // A Markdown label's icons and backticks are not text the reader sees.
      return meta?.markdown
        ? (meta.label ?? '').replace(ICON_SHORTCODE, '').replace(/`/g, '')
        : (meta?.label ?? null);
    }
    case 'math_block':
      return token.content;
    default:
      return null;
  }
}

/** The plain text of a Markdown body (see the module comment for what is kept). */
export function markdownPlainText(markdown: string): string {
  const parts: string[] = [];
  for (const token of markdownParser().parse(markdown, {})) {
    const text = blockText(token)?.trim();
    if (text) parts.push(text);
  }
  return parts.join('\n\n');
}
