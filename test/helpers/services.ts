import fs from 'node:fs';
import { configFrom } from '../../src/config.js';
import { type Core, createCore } from '../../src/core.js';
import type { FolioEvent } from '../../src/events/types.js';
import { type Clock, systemClock } from '../../src/lib/clock.js';
import type { DatabaseTarget } from './databases.js';
import { createFixtures, type Fixtures } from './fixtures.js';
import { tempDir, testEnv } from './server.js';

export interface TestServicesOptions {
  /** Time as the services see it: `manualClock()` from src/lib/clock.ts to move it by hand. */
  clock?: Clock;
  /** Extra environment (FRONTMATTER_MODE, PUBLIC_URL, …) over the test defaults. */
  env?: Record<string, string>;
  /** The database: SQLite in the temporary DATA_DIR unless a PostgreSQL target is given. */
  target?: DatabaseTarget;
}

export interface TestServices extends Pick<Core, 'config' | 'store' | 'events' | 'services'> {
  dataDir: string;
  clock: Clock;
  /** Inserts users, organizations, workspaces, memberships and pages directly. */
  fixtures: Fixtures;
  /** Every event emitted since the services were built, oldest first. */
  emitted: FolioEvent[];
  /** Closes the services and the database, then removes DATA_DIR. */
  close(): Promise<void>;
}

/**
 * Folio's services through `createCore`, with no HTTP server: a temporary DATA_DIR, a
 * migrated SQLite file there (or a fresh PostgreSQL schema), the in-process bus. Background
 * work (`services.start()`) is not started, so nothing runs that a test did not ask for.
 * For tests of what a service decides; HTTP, MCP and WebSocket behaviour belong in test/.
 */
export async function buildTestServices(options: TestServicesOptions = {}): Promise<TestServices> {
  const dataDir = tempDir('folio-services-');
  const db = options.target ? await options.target.prepare() : null;
  const config = configFrom({ ...testEnv(dataDir), ...db?.env, ...options.env });
  const clock = options.clock ?? systemClock;
  let core: Core;
  try {
    core = await createCore(config, { clock, ...(db?.pgSchema ? { pgSchema: db.pgSchema } : {}) });
  } catch (error) {
    await db?.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const emitted: FolioEvent[] = [];
  core.events.onAny((event) => void emitted.push(event));
  // The signing key is made in the background; a test that signs in needs it.
  await core.runtime.ready();

  return {
    config,
    store: core.store,
    events: core.events,
    services: core.services,
    dataDir,
    clock,
    fixtures: createFixtures({
      store: core.store,
      dataDir,
      searchIndex: core.runtime.searchIndex,
      clock,
    }),
    emitted,
    async close() {
      await core.close();
      await db?.cleanup();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
