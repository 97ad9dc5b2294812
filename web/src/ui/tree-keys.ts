/** A row of a WAI-ARIA tree as the keyboard moves through it. */
interface KeyedRow {
  key: string;
  parentKey: string | null;
}

/**
 * The WAI-ARIA tree pattern's keys for the focused row: up and down, Home and End, right to
 * open a branch (or step into it), left to close it (or go to its parent), Enter and Space
 * to activate. Trees add their own keys (rename, reorder) to what this answers.
 */
export function treeKeyActions<Row extends KeyedRow>(at: {
  rows: readonly Row[];
  focusIndex: number;
  isBranch: boolean;
  open: boolean;
  moveTo: (index: number) => void;
  toggle: (key: string, open: boolean) => void;
  activate: (row: Row) => void;
}): Record<string, () => void> {
  const { rows, focusIndex, isBranch, open, moveTo, toggle, activate } = at;
  const row = rows[focusIndex]!;
  return {
    ArrowDown: () => moveTo(focusIndex + 1),
    ArrowUp: () => moveTo(focusIndex - 1),
    Home: () => moveTo(0),
    End: () => moveTo(rows.length - 1),
    ArrowRight: () => {
      if (isBranch && !open) toggle(row.key, true);
      else if (isBranch) moveTo(focusIndex + 1);
    },
    ArrowLeft: () => {
      if (isBranch && open) toggle(row.key, false);
      else if (row.parentKey) moveTo(rows.findIndex((r) => r.key === row.parentKey));
    },
    Enter: () => activate(row),
    ' ': () => activate(row),
  };
}
