/**
 * Rows per multi-row statement. A statement's bound parameters are capped (SQLite 32,766,
 * PostgreSQL 65,535); 500 rows of the widest table written in batches (pages, 15 columns)
 * stay well below both, and a thousand-file sync still needs only a few statements.
 */
export const ROWS_PER_STATEMENT = 500;

/** `items` in consecutive slices of at most `size` (none for an empty list). */
export function inBatches<T>(items: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
