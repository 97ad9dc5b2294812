/**
 * Writes src/store/sqlite-fresh-schema.ts: the schema the migrations make of a new SQLite
 * database, which a new database is then created from in one step (src/store/sqlite-snapshot.ts).
 * Run after adding a migration: `npm run schema:sqlite`.
 */
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { freshSchemaModule } from '../src/store/sqlite-fresh-schema-module.js';
import { migrateStepByStep, snapshotOf } from '../src/store/sqlite-snapshot.js';

const native = new SqliteDatabase(':memory:');
await migrateStepByStep(native);
const target = path.resolve(import.meta.dirname, '../src/store/sqlite-fresh-schema.ts');
fs.writeFileSync(target, freshSchemaModule(snapshotOf(native)));
native.close();
console.log(`wrote ${path.relative(process.cwd(), target)}`);
