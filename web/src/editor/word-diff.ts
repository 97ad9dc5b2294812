import { presentableDiff } from '@codemirror/merge';

/** One run of a diff: text both share, text only the original has, text only the suggestion has. */
export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** The changes from `before` to `after`, aligned to words, in reading order. */
export function wordDiff(before: string, after: string): DiffPart[] {
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], text: string) => {
    if (text) parts.push({ kind, text });
  };
  let at = 0;
  for (const change of presentableDiff(before, after)) {
    push('same', before.slice(at, change.fromA));
    push('removed', before.slice(change.fromA, change.toA));
    push('added', after.slice(change.fromB, change.toB));
    at = change.toA;
  }
  push('same', before.slice(at));
  return parts;
}
