import type { Text } from '@codemirror/state';

/** The callout kinds Folio's renderer knows, with the title it gives each (src/render/markdown-plugins.ts). */
export const CALLOUT_TITLES: Record<string, string> = {
  note: 'Note',
  tip: 'Tip',
  important: 'Important',
  warning: 'Warning',
  caution: 'Caution',
  danger: 'Danger',
  info: 'Info',
};

/** The colour family of a kind, for dialects (MkDocs, Obsidian) with more kinds than Folio's five. */
export function calloutKind(name: string): string {
  const kind = name.toLowerCase();
  if (kind in CALLOUT_TITLES) return kind;
  if (['hint', 'success', 'check', 'done', 'example'].includes(kind)) return 'tip';
  if (['attention', 'question', 'help', 'faq', 'bug'].includes(kind)) return 'warning';
  if (['error', 'failure', 'fail', 'missing'].includes(kind)) return 'caution';
  return 'note';
}

/** `> [!NOTE]`, `> [!tip]- Title`, `> [!tip]+ Title` (Obsidian's fold markers). */
export const GFM_CALLOUT = /^(\s*>\s?)(\[!(\w+)\][+-]?)[ \t]*(.*)$/;
const FENCE_OPEN = /^:::[ \t]*(\w+)[ \t]*(.*)$/;
const FENCE_CLOSE = /^:::[ \t]*$/;
const MKDOCS = /^(?:!!!|\?\?\?\+?)[ \t]+(\w+)(?:[ \t]+"([^"]*)")?[ \t]*$/;

/** A callout written as `:::note` … `:::` or MkDocs' `!!! note "Title"` and indented body. */
export interface LineCallout {
  kind: string;
  /** Written title, or the kind's own. */
  title: string;
  /** Line numbers of the opening line and the last line (the `:::` closer, or the body's end). */
  first: number;
  last: number;
  /** Length of the opening line's markup before the title (hidden off the cursor). */
  markup: number;
  /** The closing `:::` line, which is hidden off the cursor, or none (MkDocs). */
  closer: boolean;
}

/** How far above the visible text an opening `:::` is looked for. */
const LOOK_BACK = 300;
/** How far a callout's body is followed: beyond this it is drawn as text. */
const MAX_LINES = 2000;

/**
 * The `:::` and MkDocs callouts that have a line within lines `fromLine`…`toLine`, found
 * by reading those lines and at most a few hundred above them (never the whole page).
 */
export function lineCallouts(doc: Text, fromLine: number, toLine: number): LineCallout[] {
  const found: LineCallout[] = [];
  const end = Math.min(doc.lines, toLine);
  for (let n = Math.max(1, fromLine - LOOK_BACK); n <= end; n++) {
    const text = doc.line(n).text;
    const fence = FENCE_OPEN.exec(text);
    if (fence) {
      let close = n + 1;
      const limit = Math.min(doc.lines, n + MAX_LINES);
      while (close <= limit && !FENCE_CLOSE.test(doc.line(close).text)) close++;
      if (close > limit) continue;
      if (close >= fromLine) found.push(callout(fence[1]!, fence[2]!, n, close, text, true));
      n = close;
      continue;
    }
    const mk = MKDOCS.exec(text);
    if (mk) {
      let last = n;
      const limit = Math.min(doc.lines, n + MAX_LINES);
      for (let m = n + 1; m <= limit; m++) {
        const body = doc.line(m).text;
        if (/^( {4}|\t)/.test(body)) last = m;
        else if (body.trim() !== '') break;
      }
      if (last >= fromLine) found.push(callout(mk[1]!, mk[2] ?? '', n, last, text, false));
      n = last;
    }
  }
  return found;
}

function callout(name: string, title: string, first: number, last: number, line: string, closer: boolean) {
  const kind = calloutKind(name);
  const written = title.trim();
  // The markup is what comes before a `:::` title; MkDocs' quoted title is drawn with the
  // line hidden, like an untitled callout's.
  const markup = written && closer ? line.lastIndexOf(written) : line.length;
  return {
    kind,
    title: written || CALLOUT_TITLES[name.toLowerCase()] || name,
    first,
    last,
    markup,
    closer,
  } satisfies LineCallout;
}
