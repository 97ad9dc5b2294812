import type * as Pg from 'pg';
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { LruCache } from '../lib/lru-cache.js';
import { migrationProvider } from './migrations/index.js';
import { pgDump } from './pg-dump.js';
import { FRESH_SQLITE_SCHEMA } from './sqlite-fresh-schema.js';
import { createFromSnapshot } from './sqlite-snapshot.js';
import type { Database } from './schema.js';
import { importPackage } from '../lib/import-package.js';

export type Dialect = 'sqlite' | 'postgres';

/** The database handle every repository and service receives. */
export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** Runs pending migrations; safe to call at every start. */
  migrate(): Promise<void>;
  /** A cheap round trip proving the database answers. */
  ping(): Promise<void>;
  /**
   * Writes a consistent snapshot of the database into the folder `dir` while it stays in
   * use, and resolves with the file written: SQLite's online backup to `folio.db`, or
   * `pg_dump` to `dump.sql` (PgDumpUnavailableError when pg_dump is not on PATH). Used by
   * the backup service; the native handle stays private to this file.
   */
  backupTo(dir: string): Promise<string>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** `postgres://…` selects PostgreSQL; otherwise SQLite at `sqlitePath`. */
  databaseUrl?: string | undefined;
  sqlitePath?: string;
  /** PostgreSQL schema to work in (tests isolate themselves with one). */
  pgSchema?: string;
}

/** Opens SQLite (WAL, foreign keys, busy timeout) or PostgreSQL. */
export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.pgSchema);
  if (!options.sqlitePath) throw new Error('openStore needs a databaseUrl or a sqlitePath');
  return openSqlite(options.sqlitePath);
}

function openSqlite(file: string): Store {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const native = new SqliteDatabase(file);
  native.pragma('journal_mode = WAL');
  native.pragma('synchronous = NORMAL');
  native.pragma('foreign_keys = ON');
  native.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(native) }),
  });
  const backupTo = async (dir: string) => {
    const target = path.join(dir, 'folio.db');
    await native.backup(target);
    return target;
  };
  // A new database is created from the finished schema rather than migration by migration.
  const createIfNew = () => createFromSnapshot(native, FRESH_SQLITE_SCHEMA);
  return finish(
    db,
    'sqlite',
    backupTo,
    async () => {
      native.prepare('select 1').get();
    },
    createIfNew,
  );
}

/** How many prepared statements SQLite keeps, by their SQL text. */
const STATEMENT_CACHE = 500;

/**
 * The database as Kysely sees it, with each statement prepared once per SQL text rather
 * than for every query (preparing was about a tenth of the server's CPU under load).
 * Safe because Kysely runs a statement to completion synchronously (`all` or `run`) and
 * Folio streams no query, so a cached statement is never busy when it is reused; SQLite
 * re-prepares one itself when a migration changes the schema.
 */
function withStatementCache(native: SqliteDatabase.Database) {
  const statements = new LruCache<SqliteDatabase.Statement>(STATEMENT_CACHE);
  return {
    close: () => native.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        statement = native.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

async function openPostgres(url: string, schema?: string): Promise<Store> {
  // Loaded only when PostgreSQL is configured, so the SQLite default starts lighter.
  const { default: pg } = await importPackage<typeof Pg>('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client's error (a restarted server) must not crash the process.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const backupTo = async (dir: string) => {
    const target = path.join(dir, 'dump.sql');
    await pgDump(url, schema, target);
    return target;
  };
  return finish(db, 'postgres', backupTo, async () => {
    await sql`select 1`.execute(db);
  });
}

/** A 3F000 (invalid schema name) about a schema other than this store's own. */
function droppedElsewhere(error: unknown, ownSchema: string | undefined): boolean {
  const cause = error as { code?: unknown; message?: unknown } | undefined;
  if (cause?.code !== '3F000' || typeof cause.message !== 'string') return false;
  return ownSchema === undefined || !cause.message.includes(`"${ownSchema}"`);
}

function finish(
  db: Kysely<Database>,
  dialect: Dialect,
  backupTo: (dir: string) => Promise<string>,
  ping: () => Promise<void>,
  /**
   * Creates a new database's schema in one step (SQLite: sqlite-snapshot.ts) before the
   * migrator looks; true when that left no migration to run.
   */
  createIfNew: () => Promise<boolean> = async () => false,
): Store {
  let closed = false;
  return {
    db,
    dialect,
    ping,
    backupTo,
    async migrate() {
      if (await createIfNew()) return;
      // Kysely looks for its migration tables in every PostgreSQL schema unless told which one;
      // another schema's tables (a second instance, parallel tests) would make it skip creating its own.
      const schema =
        dialect === 'postgres'
          ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
          : undefined;
      const migrator = new Migrator({
        db,
        provider: migrationProvider,
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      let { error, results } = await migrator.migrateToLatest();
      // Kysely looks for its tables by listing every schema's; a schema another client drops
      // during that listing fails it with 3F000 naming that other schema. Nothing of ours
      // was touched, so a new attempt is safe.
      for (let attempt = 1; attempt < 5 && droppedElsewhere(error, schema); attempt++) {
        ({ error, results } = await migrator.migrateToLatest());
      }
      if (error) {
        const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
        throw new Error(`Database migration ${failed} failed: ${(error as Error).message}`, { cause: error });
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}
