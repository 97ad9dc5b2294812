import { Decoration, type EditorView, WidgetType } from '@codemirror/view';
import { type Builder, hidden, type NodeDecorator } from './context';

/**
 * Where the browser loads an image written on page `pagePath`: URLs and absolute paths as
 * written, a relative path resolved against the page's folder and served by the content
 * API (uploads included), as the published site resolves it.
 */
export function imageSource(src: string, page: { slug: string; path: string }): string {
  const url = src.trim().replace(/^<(.*)>$/, '$1');
  if (/^([a-z][a-z0-9+.-]*:|\/)/i.test(url)) return url;
  const parts = page.path.split('/').slice(0, -1);
  for (const segment of url.split(/[?#]/)[0]!.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.' && segment !== '') parts.push(decodeURIComponentSafe(segment));
  }
  return `/api/v1/content/${encodeURIComponent(page.slug)}/${parts.map(encodeURIComponent).join('/')}`;
}

function decodeURIComponentSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** An image shown under its line; the line's Markdown stays the only text. */
class ImageWidget extends WidgetType {
  constructor(
    readonly sources: readonly string[],
    readonly alt: string,
    readonly width: number | null,
  ) {
    super();
  }

  override eq(other: ImageWidget): boolean {
    return (
      other.sources.join('\n') === this.sources.join('\n') &&
      other.alt === this.alt &&
      other.width === this.width
    );
  }

  toDOM(view: EditorView): HTMLElement {
    const figure = document.createElement('span');
    figure.className = 'cm-lp-image';
    const img = document.createElement('img');
    img.alt = this.alt;
    img.loading = 'lazy';
    if (this.width) img.width = this.width;
    let next = 0;
    const tryNext = () => {
      const src = this.sources[next++];
      if (src) img.src = src;
      else figure.classList.add('is-broken');
    };
    img.addEventListener('error', tryNext);
    // The line grows when the image arrives: CodeMirror measures it again.
    img.addEventListener('load', () => view.requestMeasure());
    tryNext();
    figure.append(img);
    return figure;
  }
}

function imageAt(builder: Builder, lineTo: number, sources: string[], alt: string, width: number | null) {
  builder.add(Decoration.widget({ widget: new ImageWidget(sources, alt, width), side: 1 }).range(lineTo));
}

/** `![alt](src "title")`: the image under its line, the Markdown hidden off the cursor. */
export const images: NodeDecorator = (node, builder) => {
  if (node.name !== 'Image') return;
  const { state, page } = builder;
  const url = node.node.getChild('URL');
  if (!url) return;
  const marks = node.node.getChildren('LinkMark');
  const alt = marks.length > 1 ? state.sliceDoc(marks[0]!.to, marks[1]!.from) : '';
  imageAt(
    builder,
    state.doc.lineAt(node.to).to,
    [imageSource(state.sliceDoc(url.from, url.to), page)],
    alt,
    null,
  );
  if (!builder.revealed(node.from, node.to)) builder.add(hidden.range(node.from, node.to));
};

const EMBED = /!\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|(\d+)(?:x\d+)?)?\]\]/g;

/**
 * Obsidian's `![[image.png]]` and `![[image.png|300]]` on line `line`: by file name, so
 * looked for in the workspace's uploads, then beside the page, then at the workspace root.
 */
export function embeds(builder: Builder, line: { from: number; to: number; text: string }): void {
  if (!line.text.includes('![[')) return;
  const { page } = builder;
  for (const m of line.text.matchAll(EMBED)) {
    const name = m[1]!.trim();
    if (!/\.(png|jpe?g|gif|webp|svg|avif)$/i.test(name)) continue;
    const sources = name.includes('/')
      ? [imageSource(name, { ...page, path: 'x' })]
      : [
          imageSource(`uploads/${name}`, { ...page, path: 'x' }),
          imageSource(name, page),
          imageSource(name, { ...page, path: 'x' }),
        ];
    imageAt(
      builder,
      line.to,
      [...new Set(sources)],
      name.replace(/\.[^.]+$/, ''),
      m[2] ? Number(m[2]) : null,
    );
    const from = line.from + m.index;
    if (!builder.revealed(from, from + m[0].length)) builder.add(hidden.range(from, from + m[0].length));
  }
}
