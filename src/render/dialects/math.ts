/**
 * TeX math as MkDocs (arithmatex), Obsidian and Docusaurus (remark-math) write it:
 * `$…$` inline and `$$…$$` blocks, rendered by KaTeX on the server (in the render
 * workers). KaTeX writes MathML, which browsers lay out natively: its HTML output needs
 * inline `style` attributes, which the site's CSP and the sanitiser refuse. The stylesheet
 * and fonts Folio serves give it KaTeX's look. A `$` followed by a space or a digit after
 * the closing one is prose (`costs $5 and $10`), not math.
 *
 * KaTeX is loaded by the first formula a worker renders: it is about 8 MB of each render
 * worker's memory, and most workspaces never write math.
 */
import type Katex from 'katex';
import { lazyPackage } from '../../lib/lazy-package.js';
import type MarkdownIt from 'markdown-it';
import type { StateBlock, StateInline } from 'markdown-it';
import { escapeHtml } from '../escape.js';

const katex = lazyPackage<typeof Katex>('katex');

/** KaTeX's own limits keep a hostile formula (macro loops, giant sizes) cheap. */
function tex(source: string, displayMode: boolean, cache: Map<string, string>): string {
  const key = `${displayMode ? 'D' : 'I'}${source}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const renderer = katex();
  let html: string;
  try {
    html = renderer.renderToString(source, {
      displayMode,
      output: 'mathml',
      throwOnError: true,
      trust: false,
      maxExpand: 500,
      maxSize: 20,
      strict: 'ignore',
    });
  } catch {
    html = `<code class="math-error" title="Invalid TeX">${escapeHtml(source)}</code>`;
  }
  if (cache.size < 5_000) cache.set(key, html);
  return html;
}

const cacheOf = (env: { mathCache?: Map<string, string> }): Map<string, string> =>
  (env.mathCache ??= new Map());

function inlineMath(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x24 /* $ */) return false;
  if (state.src.charCodeAt(start + 1) === 0x24) return false;
  const next = state.src.charAt(start + 1);
  if (!next || /\s/.test(next)) return false;
  // Only the next `$` may close it, so every `$` is looked at once (linear).
  const end = state.src.indexOf('$', start + 1);
  if (end === -1 || end > state.posMax) return false;
  const before = state.src.charAt(end - 1);
  const after = state.src.charAt(end + 1);
  if (/\s/.test(before) || before === '\\' || /\d/.test(after)) return false;
  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.content = state.src.slice(start + 1, end);
  }
  state.pos = end + 1;
  return true;
}

function blockMath(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
  let pos = (state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0);
  const max = state.eMarks[startLine] ?? 0;
  if (state.src.slice(pos, pos + 2) !== '$$') return false;
  pos += 2;
  const firstLine = state.src.slice(pos, max);
  if (silent) return true;
  // A `$$` with no closing line below it means none below it has one either: remember that,
  // so a body of unclosed `$$` lines is scanned once, not once per line.
  const env = state.env as { mathOpenMiss?: { from: number; end: number } };
  const miss = env.mathOpenMiss;
  if (miss && miss.end === endLine && startLine > miss.from) return false;
  let content = '';
  let next = startLine;
  let found = false;
  const oneLine = firstLine.trim().endsWith('$$') && firstLine.trim().length > 2;
  if (oneLine) {
    content = firstLine.trim().slice(0, -2);
    found = true;
  } else {
    const lines: string[] = firstLine.trim() ? [firstLine] : [];
    for (next = startLine + 1; next < endLine; next++) {
      const from = (state.bMarks[next] ?? 0) + (state.tShift[next] ?? 0);
      const text = state.src.slice(from, state.eMarks[next]);
      if ((state.sCount[next] ?? 0) < state.blkIndent && text) break;
      if (text.trimEnd().endsWith('$$')) {
        lines.push(text.trimEnd().slice(0, -2));
        found = true;
        break;
      }
      lines.push(text);
    }
    content = lines.join('\n');
  }
  if (!found) {
    env.mathOpenMiss = { from: startLine, end: endLine };
    return false;
  }
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.content = content;
  token.map = [startLine, next + 1];
  state.line = next + 1;
  return true;
}

/** Installs `$…$` and `$$…$$`. */
export function mathPlugin(md: MarkdownIt): void {
  md.inline.ruler.after('escape', 'folio_math_inline', inlineMath);
  md.block.ruler.after('blockquote', 'folio_math_block', blockMath, {
    alt: ['paragraph', 'reference', 'blockquote', 'list'],
  });
  md.renderer.rules.math_inline = (tokens, idx, _o, env) =>
    tex(tokens[idx]?.content ?? '', false, cacheOf(env));
  md.renderer.rules.math_block = (tokens, idx, _o, env) =>
    `<div class="math-display">${tex(tokens[idx]?.content ?? '', true, cacheOf(env))}</div>\n`;
}
