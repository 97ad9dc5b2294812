import { textChanges } from './text-diff.js';

const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * A page body as the server stores it (`raw`, byte for byte) beside the text a
 * room shares (`doc`: line breaks as LF, as the editor shows them). The room
 * never sees CRLF or CR, so two writers' editors agree on every offset; the
 * file's own line breaks are put back on saving (see `rawFor`). The BOM and
 * the frontmatter stay in the file: a room edits the body only, and the page
 * update service keeps the author's frontmatter text byte for byte.
 */
export interface RoomBase {
  raw: string;
  doc: string;
  hash: string;
  /** The line break written into lines the writers add: the file's most common one. */
  eol: string;
}

/** Splits a stored body into the room's text and what is needed to put it back. */
export function roomBase(raw: string, hash: string): RoomBase {
  const counts = new Map<string, number>();
  for (const match of raw.matchAll(LINE_BREAK)) counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
  const eol = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '\n';
  return { raw, doc: raw.replace(LINE_BREAK, '\n'), hash, eol };
}

/** Offsets in `base.doc` mapped to offsets in `base.raw` (one entry per line start). */
function rawOffset(base: RoomBase): (pos: number) => number {
  const docStarts = [0];
  const rawStarts = [0];
  let removed = 0;
  for (const match of base.raw.matchAll(LINE_BREAK)) {
    const end = match.index + match[0].length;
    removed += match[0].length - 1;
    rawStarts.push(end);
    docStarts.push(end - removed);
  }
  return (pos) => {
    let lo = 0;
    let hi = docStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (docStarts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return rawStarts[lo]! + (pos - docStarts[lo]!);
  };
}

/**
 * The body to store for the room text `doc`: the base's bytes wherever the
 * writers changed nothing (their line breaks included), their text where they
 * changed it, with the file's line break in the lines they added.
 */
export function rawFor(base: RoomBase, doc: string): string {
  if (doc === base.doc) return base.raw;
  const toRaw = rawOffset(base);
  let out = '';
  let at = 0;
  for (const change of textChanges(base.doc, doc)) {
    const from = toRaw(change.from);
    out += base.raw.slice(at, from) + change.insert.replace(/\n/g, base.eol);
    at = toRaw(change.to);
  }
  return out + base.raw.slice(at);
}
