/**
 * A new SQLite database is created from one script (src/store/sqlite-snapshot.ts) rather
 * than migration by migration: it must be the same database the migrations make, the
 * script must be up to date with them, and a stale script must leave the rest to them.
 */
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/database.js';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { FRESH_SQLITE_SCHEMA } from '../../src/store/sqlite-fresh-schema.js';
import { freshSchemaModule } from '../../src/store/sqlite-fresh-schema-module.js';
import { createFromSnapshot, migrateStepByStep, snapshotOf } from '../../src/store/sqlite-snapshot.js';
import { tempDir } from '../helpers/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Everything that makes a database's shape, in a stable order. */
function shapeOf(native: SqliteDatabase.Database) {
  return {
    objects: native.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all(),
    migrations: native.prepare('SELECT name FROM kysely_migration ORDER BY name').all(),
    locks: native.prepare('SELECT id, is_locked FROM kysely_migration_lock').all(),
  };
}

async function stepByStep(): Promise<SqliteDatabase.Database> {
  const native = new SqliteDatabase(':memory:');
  await migrateStepByStep(native);
  return native;
}

describe('a new SQLite database', () => {
  it('is created from the script as the migrations would make it, rows included', async () => {
    const migrated = await stepByStep();
    const file = path.join(tempDir(), 'folio.db');
    const store = await openStore({ sqlitePath: file });
    await store.migrate();
    await store.close();
    const created = new SqliteDatabase(file);
    expect(shapeOf(created)).toEqual(shapeOf(migrated));
    // The migrations write no rows besides their own bookkeeping, which is all the script adds.
    const tables = migrated
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'kysely_%'",
      )
      .all();
    expect(tables.length).toBeGreaterThan(30);
    for (const { name } of tables)
      expect(migrated.prepare(`SELECT count(*) AS n FROM "${name}"`).get()).toEqual({ n: 0 });
    created.close();
  });

  it('is created from a script that is up to date with the migrations (`npm run schema:sqlite`)', async () => {
    const written = fs.readFileSync(path.join(ROOT, 'src/store/sqlite-fresh-schema.ts'), 'utf8');
    expect(written).toBe(freshSchemaModule(snapshotOf(await stepByStep())));
  });

  it('gets the migrations a stale script lacks from the migrator, and an existing one is left alone', async () => {
    const names = Object.keys(await migrationProvider.getMigrations());
    const older = new SqliteDatabase(':memory:');
    const olderDb = new Kysely<unknown>({ dialect: new SqliteDialect({ database: older }) });
    await new Migrator({ db: olderDb, provider: migrationProvider }).migrateTo(names.at(-2)!);
    const stale = snapshotOf(older);
    expect(stale.migrations).toEqual(names.slice(0, -1));

    const native = new SqliteDatabase(':memory:');
    expect(await createFromSnapshot(native, stale)).toBe(false);
    await migrateStepByStep(native);
    expect(shapeOf(native)).toEqual(shapeOf(await stepByStep()));

    // A database with tables is never touched, even by a complete script.
    const before = shapeOf(native);
    expect(await createFromSnapshot(native, FRESH_SQLITE_SCHEMA)).toBe(false);
    expect(shapeOf(native)).toEqual(before);
  });
});
