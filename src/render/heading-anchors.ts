/**
 * Heading ids and permalinks for documentation pages, in one linear pass.
 *
 * The markup follows GitHub's pattern (and markdown-it-anchor's `linkAfterHeader` with a
 * wrapper): `<div class="md-heading"><h2 id="x">…</h2><a class="header-anchor" href="#x"
 * aria-label="Permalink: …">#</a></div>`. markdown-it-anchor itself splices the token
 * array and searches it again for every heading, and finds a unique slug by retrying
 * `x-1`, `x-2`, … from the start each time, so a page of many equal headings took
 * minutes. Here the token array is rebuilt once and each slug remembers its next suffix.
 */
import type MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';

/** How headings are turned into ids and labelled. */
export interface HeadingAnchorOptions {
  slugify: (text: string) => string;
  /** Plain text of a heading's inline children, the input of `slugify`. */
  headingText: (children: Token[]) => string;
}

/**
 * Hands out unique slugs: `intro`, then `intro-1`, `intro-2`, … (the first free one, as
 * markdown-it-anchor numbers them), in time linear in the number of slugs.
 */
export function createSlugRegistry(): (slug: string) => string {
  const taken = new Set<string>();
  const nextSuffix = new Map<string, number>();
  return (slug) => {
    let candidate = slug;
    let suffix = nextSuffix.get(slug) ?? 1;
    // Suffixes below `nextSuffix` were taken when last tried, and nothing is ever freed.
    if (taken.has(candidate)) {
      do candidate = `${slug}-${suffix++}`;
      while (taken.has(candidate));
      nextSuffix.set(slug, suffix);
    }
    taken.add(candidate);
    return candidate;
  };
}

/** The assistive label's text: text and inline code only, as markdown-it-anchor reads it. */
function labelText(children: Token[]): string {
  let text = '';
  for (const child of children)
    if (child.type === 'text' || child.type === 'code_inline') text += child.content;
  return text.replace(/\s+/g, ' ').trim();
}

function headingAnchors(state: StateCore, options: HeadingAnchorOptions): void {
  const source = state.tokens;
  if (!source.some((token) => token.type === 'heading_open')) return;
  const unique = createSlugRegistry();
  const out: Token[] = [];
  const html = (type: 'html_block' | 'html_inline', content: string): Token =>
    Object.assign(new state.Token(type, '', 0), { content });
  for (let i = 0; i < source.length; i++) {
    const open = source[i]!;
    const inline = source[i + 1];
    const close = source[i + 2];
    if (open.type !== 'heading_open' || inline?.type !== 'inline' || !close) {
      out.push(open);
      continue;
    }
    const children = inline.children ?? [];
    const id = unique(open.attrGet('id') ?? options.slugify(options.headingText(children)));
    open.attrSet('id', id);
    const link = new state.Token('link_open', 'a', 1);
    link.attrs = [
      ['class', 'header-anchor'],
      ['href', `#${id}`],
      ['aria-label', `Permalink: ${labelText(children)}`],
    ];
    out.push(
      html('html_block', '<div class="md-heading">\n'),
      open,
      inline,
      close,
      link,
      html('html_inline', '#'),
      new state.Token('link_close', 'a', -1),
      html('html_block', '</div>\n'),
    );
    i += 2;
  }
  state.tokens = out;
}

/** Installs the heading rule; it runs last, after every rule that may change headings. */
export function headingAnchorPlugin(md: MarkdownIt, options: HeadingAnchorOptions): void {
  md.core.ruler.push('folio_heading_anchors', (state) => headingAnchors(state, options));
}
