import { diff } from '@codemirror/merge';
import { ChangeSet, Text } from '@codemirror/state';

const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * A page body as the server stores it (`raw`, byte for byte) beside the text the
 * editor shows (`doc`: CodeMirror splits lines on CRLF, CR and LF and joins them
 * with LF). The line-start tables map a position in `doc` back into `raw`.
 */
export interface RawBase {
  raw: string;
  doc: string;
  hash: string;
  /** The line break written into lines the writer adds: the file's most common one. */
  eol: string;
  rawLineStarts: number[];
  docLineStarts: number[];
}

/** Splits a stored body into what the editor shows and how to put it back. */
export function rawBase(raw: string, hash: string): RawBase {
  const rawLineStarts = [0];
  const docLineStarts = [0];
  const counts = new Map<string, number>();
  let removed = 0;
  for (const match of raw.matchAll(LINE_BREAK)) {
    const end = match.index + match[0].length;
    removed += match[0].length - 1;
    rawLineStarts.push(end);
    docLineStarts.push(end - removed);
    counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
  }
  const eol = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '\n';
  return { raw, doc: raw.replace(LINE_BREAK, '\n'), hash, eol, rawLineStarts, docLineStarts };
}

/** The changes that turn text `a` into text `b`, as a CodeMirror ChangeSet over `a`. */
export function changesBetween(a: string, b: string): ChangeSet {
  return ChangeSet.of(
    diff(a, b).map((c) => ({ from: c.fromA, to: c.toA, insert: b.slice(c.fromB, c.toB) })),
    a.length,
  );
}

function rawPosition(base: RawBase, pos: number): number {
  const starts = base.docLineStarts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= pos) lo = mid;
    else hi = mid - 1;
  }
  return (base.rawLineStarts[lo] ?? 0) + (pos - (starts[lo] ?? 0));
}

/**
 * The body to store for the editor text `doc`: the base's bytes everywhere the
 * writer changed nothing (their line breaks, trailing blanks and all), the
 * writer's text where they changed it, with the file's line break in new lines.
 */
export function rawFor(base: RawBase, doc: string): string {
  if (doc === base.doc) return base.raw;
  let out = '';
  let at = 0;
  changesBetween(base.doc, doc).iterChanges((fromA, toA, _fromB, _toB, inserted) => {
    const from = rawPosition(base, fromA);
    out += base.raw.slice(at, from) + inserted.sliceString(0, inserted.length, base.eol);
    at = rawPosition(base, toA);
  });
  return out + base.raw.slice(at);
}

/**
 * Three-way merge of line-normalised texts: the writer's changes (base to mine)
 * applied on top of theirs. `clean` is false when both touched the same place,
 * and the writer has to decide.
 */
export function mergeThreeWay(base: string, mine: string, theirs: string): { text: string; clean: boolean } {
  const ours = changesBetween(base, mine);
  const other = changesBetween(base, theirs);
  let clean = true;
  ours.iterChangedRanges((fromA, toA) => {
    other.iterChangedRanges((fromB, toB) => {
      if (fromA <= toB && fromB <= toA) clean = false;
    });
  });
  const text = ours
    .map(other, true)
    .apply(Text.of(theirs.split('\n')))
    .toString();
  return { text, clean };
}
