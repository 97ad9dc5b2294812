import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

/** Stands where an image was, for the caller to upload it there (never in a saved page). */
export const IMAGE_SLOT = '\uE000';

/** An image of the clipboard's HTML: its `src` (`data:` or http(s)) and its alt text, escaped for Markdown. */
export interface PastedImage {
  src: string;
  alt: string;
}

/** The Markdown link to a remote image by its URL, as it is kept when it is not uploaded. */
export const remoteImageLink = ({ src, alt }: PastedImage): string =>
  `![${alt}](${src.replace(/[()\s]/g, encodeURIComponent)})`;

const BLOCKS_IN_CELLS = 'p, div, h1, h2, h3, h4, h5, h6';

/**
 * Fixes what word processors put on the clipboard before it is converted: Google Docs' bold
 * wrapper (`<b id="docs-internal-guid-…" style="font-weight:normal">`), formatting carried
 * only by inline styles, lists nested as siblings, paragraphs inside list items and table
 * cells, and tables without a heading row (which GFM cannot write).
 */
function normalise(body: HTMLElement): void {
  const doc = body.ownerDocument;
  const unwrap = (el: Element) => el.replaceWith(...Array.from(el.childNodes));
  for (const el of body.querySelectorAll('b[id^="docs-internal-guid"], b[style*="font-weight:normal"]'))
    unwrap(el);
  for (const span of body.querySelectorAll<HTMLElement>('span[style]')) {
    const style = span.getAttribute('style')!.toLowerCase().replace(/\s+/g, '');
    let inner: Node[] = Array.from(span.childNodes);
    const wrap = (tag: string) => {
      const el = doc.createElement(tag);
      el.append(...inner);
      inner = [el];
    };
    if (/font-family:[^;]*(mono|courier|consolas)/.test(style)) wrap('code');
    if (/font-weight:(bold|[6-9]00)/.test(style)) wrap('strong');
    if (/font-style:italic/.test(style)) wrap('em');
    if (/text-decoration[^;]*line-through/.test(style)) wrap('del');
    span.replaceWith(...inner);
  }
  // `<ul><li>a</li><ul><li>b</li></ul></ul>` (Google Docs): the inner list belongs to the item above.
  for (const list of body.querySelectorAll('ul > ul, ul > ol, ol > ul, ol > ol')) {
    const item = list.previousElementSibling;
    if (item?.tagName === 'LI') item.append(list);
  }
  for (const p of body.querySelectorAll('li > p')) unwrap(p);
  for (const table of body.querySelectorAll('table')) {
    // GFM's converter only writes a table whose first row comes first in it.
    for (const extra of table.querySelectorAll('colgroup, caption')) extra.remove();
    for (const block of table.querySelectorAll(BLOCKS_IN_CELLS)) {
      block.after(' ');
      unwrap(block);
    }
    for (const br of table.querySelectorAll('br')) br.replaceWith(' ');
    const first = table.rows[0];
    if (first && !Array.from(first.cells).every((c) => c.tagName === 'TH')) {
      for (const cell of Array.from(first.cells)) {
        const th = doc.createElement('th');
        th.append(...Array.from(cell.childNodes));
        cell.replaceWith(th);
      }
    }
  }
  for (const el of body.querySelectorAll('[style]')) el.removeAttribute('style');
}

function service(images: PastedImage[]): TurndownService {
  const td = new TurndownService({
    headingStyle: 'atx',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    fence: '```',
    emDelimiter: '*',
    strongDelimiter: '**',
    hr: '---',
  });
  td.use(gfm);
  // GFM's plugin writes `~strike~`; Folio (and GitHub's docs) write `~~strike~~`.
  td.addRule('strikethrough', { filter: ['del', 's'], replacement: (content) => `~~${content}~~` });
  td.remove(['style', 'script', 'meta', 'title', 'head', 'colgroup', 'noscript']);
  // `- item` and `1. item`, nested items indented by their marker's width (turndown writes `-   `).
  td.addRule('listItem', {
    filter: 'li',
    replacement(content, node) {
      const parent = node.parentNode as HTMLElement | null;
      let prefix = '- ';
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? 1);
        prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '')
        .replace(/\n/g, `\n${' '.repeat(prefix.length)}`);
      return `${prefix}${body}${node.nextSibling ? '\n' : ''}`;
    },
  });
  td.addRule('images', {
    filter: 'img',
    replacement(_content, node) {
      const img = node as HTMLImageElement;
      const src = img.getAttribute('src') ?? '';
      const alt = (img.getAttribute('alt') ?? '').replace(/[\\[\]]/g, '\\$&');
      if (!src.startsWith('data:image/') && !/^https?:\/\//i.test(src)) return alt;
      images.push({ src, alt });
      return IMAGE_SLOT;
    },
  });
  // `<br>` inside a paragraph: a Markdown hard break would be trailing spaces; a new line reads better.
  td.addRule('lineBreak', { filter: 'br', replacement: () => '\n' });
  return td;
}

/**
 * The Markdown of a clipboard's HTML in Folio's style: ATX headings, `-` bullets, `**` and
 * `*`, fenced code, GFM tables, links and images with their URL; no HTML, no inline style.
 * Images (`data:` and http(s)) are left as IMAGE_SLOT, in order, with their URL and
 * escaped alt text in `images`; the caller uploads them or writes `remoteImageLink`.
 */
export function htmlToMarkdown(html: string): { markdown: string; images: PastedImage[] } {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  normalise(parsed.body);
  const images: PastedImage[] = [];
  const markdown = service(images)
    .turndown(parsed.body)
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { markdown, images };
}
