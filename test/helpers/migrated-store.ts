import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openStore, type Store } from '../../src/store/database.js';
import type { DatabaseTarget } from './databases.js';
import { tempDir } from './server.js';

/**
 * A freshly migrated store on `target` for the suite that calls it (opened before its
 * tests, closed and dropped after). Read `store()` inside tests and hooks.
 */
export function useMigratedStore(target: DatabaseTarget): () => Store {
  let store: Store | undefined;
  let cleanup: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const prepared = await target.prepare();
    cleanup = prepared.cleanup;
    store = await openStore({
      databaseUrl: prepared.env.DATABASE_URL,
      sqlitePath: path.join(tempDir(), 'folio.db'),
      ...(prepared.pgSchema ? { pgSchema: prepared.pgSchema } : {}),
    });
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    await cleanup();
  });
  return () => {
    if (!store) throw new Error('the store opens in beforeAll');
    return store;
  };
}
