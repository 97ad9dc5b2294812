import pg from 'pg';
import { ulid } from 'ulid';

// Free of vitest, so the benchmarks can use it too.

/** A fresh schema in the test database, dropped by `cleanup`. */
export async function createPgSchema(url: string): Promise<{ schema: string; cleanup(): Promise<void> }> {
  const schema = `folio_t_${ulid().toLowerCase()}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  return {
    schema,
    async cleanup() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}
