import type SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrationProvider } from './migrations/index.js';

/**
 * A new SQLite database is created from one script instead of by running every migration.
 *
 * The migrations are code that runs once per database, and on a fresh DATA_DIR it ran
 * cold: about 40 ms of the first start (16 migrations through Kysely's schema builder)
 * for what SQLite executes from the finished schema in a few. The script is
 * `sqlite-fresh-schema.ts`, written by `npm run schema:sqlite` from the migrations
 * (test/store/fresh-sqlite-schema.test.ts fails when it is out of date). The migrations
 * it holds are recorded as applied, and any newer one still runs after it, so a stale
 * script only costs time.
 */

/** The migrations' bookkeeping tables (Kysely's), recorded by the script. */
const MIGRATION_TABLE = 'kysely_migration';
const LOCK_TABLE = 'kysely_migration_lock';

export interface SqliteSnapshot {
  /** CREATE statements of every table and index, in the order the migrations made them. */
  schema: string;
  /** The migrations the schema is the result of. */
  migrations: string[];
}

/** Runs every migration on `native`, one by one, as a database made before the script was. */
export async function migrateStepByStep(native: SqliteDatabase.Database): Promise<void> {
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: native }) });
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) throw error;
}

/** What the migrations made of `native`: its schema and the migrations recorded. */
export function snapshotOf(native: SqliteDatabase.Database): SqliteSnapshot {
  const statements = native
    .prepare<[], { sql: string }>(
      "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
    )
    .all()
    .map((row) => `${row.sql};`);
  const migrations = native
    .prepare<[], { name: string }>(`SELECT name FROM "${MIGRATION_TABLE}" ORDER BY name`)
    .all()
    .map((row) => row.name);
  return { schema: statements.join('\n'), migrations };
}

/**
 * Creates the schema on a database that has no table yet, and answers whether that left
 * no migration to run; on any other database it does nothing and answers false.
 */
export async function createFromSnapshot(
  native: SqliteDatabase.Database,
  snapshot: SqliteSnapshot,
): Promise<boolean> {
  // Under the write lock (BEGIN IMMEDIATE), so two processes cannot both find it empty.
  const created = native
    .transaction(() => {
      const tables = native.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as {
        n: number;
      };
      if (tables.n > 0) return false;
      native.exec(snapshot.schema);
      const now = new Date().toISOString();
      const applied = native.prepare(`INSERT INTO "${MIGRATION_TABLE}" (name, timestamp) VALUES (?, ?)`);
      for (const name of snapshot.migrations) applied.run(name, now);
      native.prepare(`INSERT INTO "${LOCK_TABLE}" (id, is_locked) VALUES ('migration_lock', 0)`).run();
      return true;
    })
    .immediate();
  if (!created) return false;
  const recorded = new Set(snapshot.migrations);
  return Object.keys(await migrationProvider.getMigrations()).every((name) => recorded.has(name));
}
