import type { SqliteSnapshot } from './sqlite-snapshot.js';

/** The text of src/store/sqlite-fresh-schema.ts for `snapshot` (scripts/sqlite-schema.ts writes it, the test compares it). */
export function freshSchemaModule(snapshot: SqliteSnapshot): string {
  return [
    '// Written by `npm run schema:sqlite` (scripts/sqlite-schema.ts) from the migrations: do not edit.',
    "import type { SqliteSnapshot } from './sqlite-snapshot.js';",
    '',
    'export const FRESH_SQLITE_SCHEMA: SqliteSnapshot = {',
    `  schema: ${JSON.stringify(snapshot.schema)},`,
    `  migrations: ${JSON.stringify(snapshot.migrations)},`,
    '};',
    '',
  ].join('\n');
}
