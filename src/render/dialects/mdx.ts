/**
 * MDX as Docusaurus writes it, read as Markdown: `import`/`export` lines are hidden,
 * `<Tabs>`/`<TabItem value label>` become Folio's tabs, `<Admonition type title>` a
 * callout, and any other component (a capitalised JSX tag on its own line) shows its
 * children, with the component's name recorded for the quality report.
 *
 * A core rule first rewrites the source in memory (never the file): ESM lines become
 * blank, and the content of a component is dedented to its first line's indentation, as
 * MDX does, so an indented paragraph inside `<TabItem>` is not an indented code block.
 * Line numbers are kept. Both passes look at each line once.
 */
import type MarkdownIt from 'markdown-it';
import type { StateBlock, StateCore } from 'markdown-it';
import { calloutKind } from './callout-kinds.js';

const ESM_LINE =
  /^(?:import\s+(?:[\w*{][^'"]*?\s+from\s+)?['"][^'"\n]+['"]\s*;?|export\s+(?:default\s+|const\s|let\s|var\s|function\s|\{).*)\s*$/;
const JSX_LINE = /^[ \t]*<(\/?)([A-Z][\w.]*)((?:\s[^<>]*?)?)(\/?)>[ \t]*$/;
const FENCE = /^[ \t]*(`{3,}|~{3,})/;
const MAYBE_MDX = /^(?:import|export)\s|<\/?[A-Z]/m;

/** What the block rule and the quality report know about a JSX line. */
export interface JsxLine {
  closing: boolean;
  name: string;
  attrs: string;
  selfClosing: boolean;
}

/** A capitalised JSX tag alone on a line, or null. */
export function parseJsxLine(line: string): JsxLine | null {
  const m = JSX_LINE.exec(line);
  if (!m) return null;
  return { closing: m[1] === '/', name: m[2] ?? '', attrs: m[3] ?? '', selfClosing: m[4] === '/' };
}

/** True for an MDX `import …`/`export …` statement line. */
export const isEsmLine = (line: string): boolean => ESM_LINE.test(line);

/** The components Folio renders itself; any other is shown as its children. */
export const KNOWN_COMPONENTS = new Set(['Tabs', 'TabItem', 'Admonition']);

/** A JSX attribute's string value: `name="x"`, `name='x'`, `name={"x"}` or `name={'x'}`. */
export function jsxAttr(attrs: string, name: string): string | null {
  const m = new RegExp(
    `(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|\\{\\s*"([^"]*)"\\s*\\}|\\{\\s*'([^']*)'\\s*\\})`,
  ).exec(attrs);
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '') : null;
}

const hasFlag = (attrs: string, name: string): boolean =>
  new RegExp(`(?:^|\\s)${name}(?:\\s|$|=\\{true\\})`).test(attrs);

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** Core rule before block parsing: hides ESM lines and dedents component content (see the module comment). */
function mdxSource(state: StateCore): void {
  if (!MAYBE_MDX.test(state.src)) return;
  const lines = state.src.split('\n');
  let fence: string | null = null;
  /** Indentation to strip inside each open component (null until its first content line). */
  const strip: Array<number | null> = [];
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i] ?? '';
    const depth = strip.length;
    if (depth > 0 && line.trim()) {
      const top = strip[depth - 1];
      const jsx = parseJsxLine(line);
      if (top === null && !(jsx && jsx.closing)) strip[depth - 1] = indentOf(line);
      const cut = Math.min(indentOf(line), strip[depth - 1] ?? 0);
      if (cut > 0) {
        line = line.slice(cut);
        lines[i] = line;
        changed = true;
      }
    }
    const f = FENCE.exec(line);
    if (fence !== null) {
      if (
        f &&
        f[1]?.[0] === fence[0] &&
        (f[1]?.length ?? 0) >= fence.length &&
        !line.trim().slice(f[1]!.length).trim()
      )
        fence = null;
      continue;
    }
    if (f) {
      fence = f[1] ?? '```';
      continue;
    }
    if (depth === 0 && ESM_LINE.test(line)) {
      lines[i] = '';
      changed = true;
      continue;
    }
    const jsx = parseJsxLine(line);
    if (!jsx || jsx.selfClosing) continue;
    if (jsx.closing) strip.pop();
    else strip.push(null);
  }
  if (changed) state.src = lines.join('\n');
}

function jsxBlockRule(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
  const start = (state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0);
  if (state.src.charCodeAt(start) !== 0x3c /* < */) return false;
  const jsx = parseJsxLine(state.src.slice(start, state.eMarks[startLine]));
  if (!jsx) return false;
  if (silent) return true;
  const nesting = jsx.selfClosing ? 0 : jsx.closing ? -1 : 1;
  let token;
  if (jsx.name === 'Tabs') {
    if (jsx.selfClosing) return false;
    token = state.push(jsx.closing ? 'folio_tabs_close' : 'folio_tabs_open', 'div', nesting);
  } else if (jsx.name === 'TabItem') {
    if (jsx.selfClosing) return false;
    token = state.push(jsx.closing ? 'folio_tab_close' : 'folio_tab_open', 'div', nesting);
    if (!jsx.closing) {
      const label = jsxAttr(jsx.attrs, 'label') ?? jsxAttr(jsx.attrs, 'value') ?? '';
      token.meta = { label, selected: hasFlag(jsx.attrs, 'default') };
    }
  } else if (jsx.name === 'Admonition' && !jsx.selfClosing) {
    token = state.push(jsx.closing ? 'callout_close' : 'callout_open', 'div', nesting);
    if (!jsx.closing) {
      const kind = jsxAttr(jsx.attrs, 'type') ?? 'note';
      const title = jsxAttr(jsx.attrs, 'title');
      token.meta = { kind: calloutKind(kind), written: kind, title: title ?? '', titled: true, fold: '' };
    } else token.meta = { fold: '' };
  } else {
    // Unknown component: nothing of its own is shown; its children render as Markdown.
    token = state.push('folio_jsx', '', nesting);
    token.meta = { name: jsx.name };
  }
  token.block = true;
  token.map = [startLine, startLine + 1];
  state.line = startLine + 1;
  return true;
}

/** Installs the MDX source pass and the JSX block rule. */
export function mdxPlugin(md: MarkdownIt): void {
  md.core.ruler.after('normalize', 'folio_mdx_source', mdxSource);
  md.block.ruler.before('html_block', 'folio_jsx', jsxBlockRule, {
    alt: ['paragraph', 'reference', 'blockquote', 'list'],
  });
  md.renderer.rules.folio_jsx = () => '';
}
