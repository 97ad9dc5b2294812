import pg from 'pg';
import { ulid } from 'ulid';
import { migrationProvider } from '../../src/store/migrations/index.js';

// Free of vitest, so the benchmarks can use it too.

/**
 * Schemas handed back by finished tests, emptied and ready for the next one. Migrating a
 * fresh schema costs PostgreSQL about a second, and the suites start several hundred servers
 * on it, so a schema is migrated once and then reused: emptied at cleanup, taken at the next
 * start. The table lives in `public`, outside every test's search path.
 */
const POOL = 'public.folio_test_schema_pool';

/** The migrations of this checkout: a pooled schema is reused only when it has exactly these. */
async function currentMigrations(): Promise<string> {
  return Object.keys(await migrationProvider.getMigrations())
    .sort()
    .join(',');
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function ensurePool(client: pg.Client): Promise<void> {
  try {
    await client.query(
      `create table if not exists ${POOL} (name text primary key, migrations text not null)`,
    );
  } catch (error) {
    // Two workers creating it at once: one wins, the other sees its catalogue row.
    if ((error as { code?: string }).code !== '23505') throw error;
  }
}

/** Takes an emptied schema migrated as this checkout's, or none. */
async function takePooled(client: pg.Client, migrations: string): Promise<string | null> {
  await ensurePool(client);
  const taken = await client.query<{ name: string }>(
    `delete from ${POOL} where name = (
       select name from ${POOL} where migrations = $1 limit 1 for update skip locked
     ) returning name`,
    [migrations],
  );
  return taken.rows[0]?.name ?? null;
}

/**
 * Empties `schema` back to its just-migrated state (no migration inserts rows, so that is
 * every table but the migrator's own empty) and returns it to the pool; a schema not
 * migrated as this checkout's, or one still locked by a server, is dropped instead.
 */
async function recycle(client: pg.Client, schema: string, migrations: string): Promise<void> {
  const tables = await client.query<{ tablename: string }>(
    `select tablename from pg_tables where schemaname = $1`,
    [schema],
  );
  const names = tables.rows.map((r) => r.tablename);
  const applied = names.includes('kysely_migration')
    ? (await client.query<{ name: string }>(`select name from ${schema}.kysely_migration`)).rows
        .map((r) => r.name)
        .sort()
        .join(',')
    : '';
  const data = names.filter((n) => !n.startsWith('kysely_migration'));
  if (applied === migrations && data.length > 0) {
    try {
      await client.query(`set lock_timeout = '5s'`);
      await client.query(
        `truncate ${data.map((n) => `${schema}."${n}"`).join(', ')} restart identity cascade`,
      );
      await ensurePool(client);
      await client.query(`insert into ${POOL} (name, migrations) values ($1, $2)`, [schema, migrations]);
      return;
    } catch {
      // Fall through: a schema that cannot be emptied is not reused.
    }
  }
  await client.query(`drop schema if exists ${schema} cascade`);
}

/** An empty schema in the test database (a pooled one when it can), given back by `cleanup`. */
export async function createPgSchema(url: string): Promise<{ schema: string; cleanup(): Promise<void> }> {
  const migrations = await currentMigrations();
  const schema = await withClient(url, async (client) => {
    const pooled = await takePooled(client, migrations);
    if (pooled) return pooled;
    const fresh = `folio_t_${ulid().toLowerCase()}`;
    await client.query(`create schema ${fresh}`);
    return fresh;
  });
  return {
    schema,
    cleanup: () => withClient(url, (client) => recycle(client, schema, migrations)),
  };
}
