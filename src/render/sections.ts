/**
 * A page body cut into the sections a reader lands on: the text before the first heading,
 * then one section per heading (h2 to h6; a leading h1 is the page's title), each with the
 * anchor id the rendered page gives that heading. The site's search indexes these, so a
 * hit can open the page at the heading it falls under.
 *
 * The ids come from the same heading rule as the renderer's (heading-anchors.ts with the
 * same slugify and heading text), run over the same parser plugins, so `#anchor` always
 * exists on the page. Parsing is linear in the body; bodies are capped before parsing.
 */
import MarkdownIt from 'markdown-it';
import { headingAnchorPlugin } from './heading-anchors.js';
import { slugify } from './links.js';
import { folioDocsPlugin, inlineText } from './markdown-plugins.js';
import { blockText } from './plain-text.js';

/** One section of a page: `anchor` is null for the text above the first heading. */
export interface PageSection {
  heading: string | null;
  anchor: string | null;
  text: string;
}

/** Source characters parsed per page: a reader's search needs no more, and parsing stays short. */
export const MAX_SECTIONED_SOURCE = 200_000;
/** Characters of text kept per section (the index and its snippets). */
export const MAX_SECTION_TEXT = 4_000;

let parser: MarkdownIt | undefined;

function sectionParser(): MarkdownIt {
  parser ??= new MarkdownIt('default', { html: true, linkify: false }).use(folioDocsPlugin);
  // Installed once; the rule only sets ids, it adds permalink tokens the walk below skips.
  if (!(parser as MarkdownIt & { folioSections?: true }).folioSections) {
    headingAnchorPlugin(parser, { slugify, headingText: (children) => inlineText(children).trim() });
    (parser as MarkdownIt & { folioSections?: true }).folioSections = true;
  }
  return parser;
}

/** The sections of a Markdown body (without frontmatter), in order; empty sections are dropped. */
export function markdownSections(markdown: string): PageSection[] {
  const tokens = sectionParser().parse(markdown.slice(0, MAX_SECTIONED_SOURCE), {});
  const sections: PageSection[] = [];
  let current: PageSection = { heading: null, anchor: null, text: '' };
  let sawTitle = false;
  const close = () => {
    current.text = current.text.slice(0, MAX_SECTION_TEXT);
    if (current.heading !== null || current.text) sections.push(current);
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === 'heading_open') {
      const text = inlineText(tokens[i + 1]?.children ?? null)
        .replace(/\s+/g, ' ')
        .trim();
      i += 2;
      // The first h1 before any other heading is the page's title, not a section.
      if (token.tag === 'h1' && !sawTitle && sections.length === 0 && current.heading === null) {
        sawTitle = true;
        continue;
      }
      close();
      current = { heading: text, anchor: token.attrGet('id'), text: '' };
      continue;
    }
    if (current.text.length >= MAX_SECTION_TEXT) continue;
    const text = blockText(token)?.replace(/\s+/g, ' ').trim();
    if (text) current.text += current.text ? ` ${text}` : text;
  }
  close();
  return sections;
}
