/** One replacement in a text: `from`..`to` of the old text becomes `insert`. */
export interface TextChange {
  from: number;
  to: number;
  insert: string;
}

/** Beyond this many differing lines the diff gives up on precision and answers one hunk. */
const MAX_EDIT_DISTANCE = 4000;

/** Splits keeping each line's terminator, so joining the pieces gives the text back. */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * The changes that turn `a` into `b`, ascending and non-overlapping, with
 * positions in `a`: a line diff (Myers) whose hunks are then trimmed to the
 * characters that differ. Small and local, so applying them into a shared
 * document keeps everyone's cursors and their concurrent typing elsewhere.
 */
export function textChanges(a: string, b: string): TextChange[] {
  if (a === b) return [];
  const A = linesOf(a);
  const B = linesOf(b);
  const hunks = lineHunks(A, B);
  const starts = (lines: string[]) => {
    const out = [0];
    for (const line of lines) out.push(out[out.length - 1]! + line.length);
    return out;
  };
  const sa = starts(A);
  const sb = starts(B);
  const changes: TextChange[] = [];
  for (const h of hunks) {
    let from = sa[h.a0]!;
    let to = sa[h.a1]!;
    let bFrom = sb[h.b0]!;
    let bTo = sb[h.b1]!;
    while (from < to && bFrom < bTo && a[from] === b[bFrom]) {
      from++;
      bFrom++;
    }
    while (to > from && bTo > bFrom && a[to - 1] === b[bTo - 1]) {
      to--;
      bTo--;
    }
    if (from !== to || bFrom !== bTo) changes.push({ from, to, insert: b.slice(bFrom, bTo) });
  }
  return changes;
}

interface Hunk {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

/** Myers' O(ND) diff over lines: the runs of lines of A replaced by runs of B. */
function lineHunks(A: string[], B: string[]): Hunk[] {
  const n = A.length;
  const m = B.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && A[x] === B[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
    v = next;
  }
  if (!found) return [{ a0: 0, a1: n, b0: 0, b1: m }];
  // Walk the trace back from (n, m), collecting the edits, then merge adjacent ones into hunks.
  const edits: Array<{ x: number; y: number; del: boolean }> = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = vd[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
    }
    edits.push(down ? { x: prevX, y: prevY, del: false } : { x: prevX, y: prevY, del: true });
    x = prevX;
    y = prevY;
  }
  edits.reverse();
  const hunks: Hunk[] = [];
  for (const e of edits) {
    const last = hunks[hunks.length - 1];
    const a1 = e.del ? e.x + 1 : e.x;
    const b1 = e.del ? e.y : e.y + 1;
    if (last && last.a1 === e.x && last.b1 === e.y) {
      last.a1 = a1;
      last.b1 = b1;
    } else hunks.push({ a0: e.x, a1, b0: e.y, b1 });
  }
  return hunks;
}

/** Whether any change of `ours` touches a range that a change of `theirs` touches (both over one base). */
export function changesOverlap(ours: TextChange[], theirs: TextChange[]): boolean {
  return ours.some((o) => theirs.some((t) => o.from <= t.to && t.from <= o.to));
}

/**
 * Where base position `pos` is after `changes` (over the same base) were
 * applied; a position inside a replaced range moves to its end.
 */
export function mapPosition(changes: TextChange[], pos: number): number {
  let shift = 0;
  for (const c of changes) {
    if (c.from >= pos && !(c.from === pos && c.to === pos)) break;
    if (c.to <= pos) shift += c.insert.length - (c.to - c.from);
    else return c.from + shift + c.insert.length;
  }
  return pos + shift;
}

/** `text` with `changes` (ascending, over `text`) applied. */
export function applyChanges(text: string, changes: TextChange[]): string {
  let out = '';
  let at = 0;
  for (const c of changes) {
    out += text.slice(at, c.from) + c.insert;
    at = c.to;
  }
  return out + text.slice(at);
}
