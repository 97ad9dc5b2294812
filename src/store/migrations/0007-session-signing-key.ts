import type { Kysely } from 'kysely';

/**
 * Each session remembers the id of the JWT key it was opened under
 *.
 * Sessions opened before this column existed have none and count as opened
 * under a retired key, so their holders sign in once more.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('key_id', 'text').execute();
}
