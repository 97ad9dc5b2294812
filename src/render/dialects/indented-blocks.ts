/**
 * MkDocs (Python-Markdown) blocks whose content is indented by four spaces under a marker
 * line: admonitions `!!! type "Title"`, collapsible ones `??? type` / `???+ type`, and
 * content tabs `=== "Label"` (consecutive tabs form one group; `===!` starts a new one,
 * `===+` selects a tab). The content is parsed as Markdown one level in, the way lists
 * parse their items, so each line is read once per level (linear in the body).
 */
import type MarkdownIt from 'markdown-it';
import type { StateBlock, Token } from 'markdown-it';
import { calloutKind } from './callout-kinds.js';

const ADMONITION = /^(!!!|\?\?\?\+?)[ \t]+([\w-]+)((?:[ \t]+[\w-]+)*)(?:[ \t]+"([^"\n]*)")?[ \t]*$/;
const TAB = /^===([!+]?)[ \t]+"([^"\n]*)"[ \t]*$/;

function lineText(state: StateBlock, line: number): string {
  const start = (state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0);
  return state.src.slice(start, state.eMarks[line]);
}

/** The line after the block's indented content: blank lines and lines indented four more. */
function contentEnd(state: StateBlock, startLine: number, endLine: number): number {
  const indent = state.blkIndent + 4;
  let last = startLine;
  for (let line = startLine + 1; line < endLine; line++) {
    if (state.isEmpty(line)) continue;
    if ((state.sCount[line] ?? 0) < indent) break;
    last = line;
  }
  return last + 1;
}

/** Parses the indented content of the block at `startLine` between its open and close tokens. */
function parseContent(state: StateBlock, startLine: number, end: number): void {
  const oldIndent = state.blkIndent;
  const oldParent = state.parentType;
  const oldLineMax = state.lineMax;
  state.blkIndent += 4;
  // @ts-expect-error markdown-it allows any parent type name; 'folio_block' just stops lazy continuations.
  state.parentType = 'folio_block';
  state.lineMax = end;
  state.md.block.tokenize(state, startLine + 1, end);
  state.lineMax = oldLineMax;
  state.parentType = oldParent;
  state.blkIndent = oldIndent;
}

function admonitionRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
  const first = state.src.charCodeAt((state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0));
  if (first !== 0x21 /* ! */ && first !== 0x3f /* ? */) return false;
  const m = ADMONITION.exec(lineText(state, startLine));
  if (!m) return false;
  if (silent) return true;
  const [, marker = '!!!', kind = 'note', , title] = m;
  const end = contentEnd(state, startLine, endLine);
  const open = state.push('callout_open', 'div', 1);
  open.map = [startLine, end];
  open.block = true;
  open.meta = {
    kind: calloutKind(kind),
    written: kind,
    title: title ?? '',
    titled: title === undefined || title !== '',
    fold: marker === '!!!' ? '' : marker === '???' ? '-' : '+',
  };
  parseContent(state, startLine, end);
  const close = state.push('callout_close', 'div', -1);
  close.block = true;
  close.meta = open.meta;
  state.line = end;
  return true;
}

function tabRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
  if (state.src.charCodeAt((state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0)) !== 0x3d)
    return false;
  const m = TAB.exec(lineText(state, startLine));
  if (!m) return false;
  if (silent) return true;
  const [, flag = '', label = ''] = m;
  const end = contentEnd(state, startLine, endLine);
  // A tab right after another continues its group (unless `===!` starts a new one).
  const last: Token | undefined = state.tokens[state.tokens.length - 1];
  if (
    flag !== '!' &&
    last?.type === 'folio_tabs_close' &&
    last.meta?.implicit &&
    last.level === state.level
  ) {
    state.tokens.pop();
    state.level++;
  } else {
    const group = state.push('folio_tabs_open', 'div', 1);
    group.block = true;
    group.map = [startLine, end];
  }
  const tab = state.push('folio_tab_open', 'div', 1);
  tab.block = true;
  tab.map = [startLine, end];
  // MkDocs Material renders a label as inline Markdown (`:octicons-…:` icons, `code`).
  tab.meta = { label, selected: flag === '+', markdown: true };
  parseContent(state, startLine, end);
  state.push('folio_tab_close', 'div', -1).block = true;
  const close = state.push('folio_tabs_close', 'div', -1);
  close.block = true;
  close.meta = { implicit: true };
  state.line = end;
  return true;
}

/** Installs the MkDocs admonition and content-tab block rules. */
export function indentedBlocksPlugin(md: MarkdownIt): void {
  const alt = { alt: ['paragraph', 'reference', 'blockquote', 'list'] };
  md.block.ruler.before('fence', 'folio_admonition', admonitionRule, alt);
  md.block.ruler.before('fence', 'folio_content_tab', tabRule, alt);
}
