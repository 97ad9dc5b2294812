/**
 * Markdown rendering of pathological pages (the renderer itself, in this process): many
 * equal headings, long runs of `[` and of raw HTML tags, and a large ordinary page. Each
 * input is rendered at two sizes so the figures show whether time grows linearly.
 */
import { createRenderer } from '../src/render/markdown.js';
import { report, type Figure } from './report.js';

const KB = 1024;
const ORDINARY =
  '## Section\n\nSome [link](other.md) and [[wiki]] text with `code` and **bold**.\n\n- [ ] task\n\n';

const INPUTS: Record<string, (bytes: number) => string> = {
  "'# h' headings": (bytes) => '# h\n'.repeat(bytes / 4),
  "'[' brackets": (bytes) => '['.repeat(bytes),
  '`<span>` tags': (bytes) => '<span>'.repeat(Math.floor(bytes / 6)),
  'ordinary Markdown': (bytes) => ORDINARY.repeat(Math.floor(bytes / ORDINARY.length)),
};

const SIZES: Record<string, number[]> = {
  "'# h' headings": [128 * KB, 256 * KB],
  "'[' brackets": [256 * KB, 1024 * KB],
  '`<span>` tags': [32 * KB, 64 * KB],
  'ordinary Markdown': [1024 * KB, 2048 * KB],
};

export async function benchRender(): Promise<void> {
  const renderer = createRenderer();
  const ctx = { pagePath: 'a.md', resolveWikilink: () => '/p/ws/wiki', rewriteHref: (href: string) => href };
  renderer.render(ORDINARY.repeat(100), ctx); // warm-up
  const figures: Figure[] = [];
  for (const [name, make] of Object.entries(INPUTS)) {
    for (const bytes of SIZES[name] ?? []) {
      const body = make(bytes);
      const t0 = performance.now();
      renderer.render(body, ctx);
      const ms = performance.now() - t0;
      figures.push({ figure: `render ${bytes / KB} KB of ${name}`, value: `${ms.toFixed(0)} ms` });
    }
  }
  report('render', figures);
}
