/**
 * A WorkspaceLock that also holds across server instances sharing one
 * PostgreSQL database (and one DATA_DIR): a session-level advisory lock per
 * workspace, so two instances never commit, merge or write pages into the same
 * working tree at once.
 */
import { KeyedLock, type WorkspaceLock } from './lock.js';

/** The part of a `pg.Client` this lock uses. */
export interface AdvisoryClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface PgAdvisoryLockOptions {
  /** Opens the dedicated connection (again after it was lost). */
  connect: () => Promise<AdvisoryClient>;
  /** Told when the connection fails; the locks it held are gone with it. */
  onError?: (error: unknown) => void;
  /** First and longest pause between two attempts on a lock another instance holds (ms). */
  minPollMs?: number;
  maxPollMs?: number;
}

// Two-key form: the first key keeps Folio's locks apart from any other application's
// advisory locks in the same database; hashtext is PostgreSQL's own stable 32-bit hash.
const TRY_LOCK = `select pg_try_advisory_lock(hashtext('folio.workspace'), hashtext($1)) as ok`;
const UNLOCK = `select pg_advisory_unlock(hashtext('folio.workspace'), hashtext($1)) as ok`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * In-process FIFO first (KeyedLock), then `pg_try_advisory_lock` on one
 * dedicated connection, polled with backoff while another instance holds it.
 * Polling rather than the blocking `pg_advisory_lock` keeps the single
 * connection free: a blocked call would queue this instance's unlocks (and
 * every other workspace's locks) behind it. The connection is not one of the
 * store's pool, so lock holders can never starve the queries they run.
 */
export class PgAdvisoryLock implements WorkspaceLock {
  private readonly local = new KeyedLock();
  private client: Promise<AdvisoryClient> | null = null;
  private closed = false;

  constructor(private readonly options: PgAdvisoryLockOptions) {}

  /** See WorkspaceLock.run. */
  run<T>(workspaceId: string, fn: () => Promise<T>): Promise<T> {
    return this.local.run(workspaceId, async () => {
      await this.acquire(workspaceId);
      try {
        return await fn();
      } finally {
        await this.release(workspaceId);
      }
    });
  }

  /** Ends the dedicated connection; the database drops whatever it still held. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    if (client) await (await client.catch(() => null))?.end().catch(() => undefined);
  }

  private connection(): Promise<AdvisoryClient> {
    if (this.closed) return Promise.reject(new Error('the workspace lock is closed'));
    if (!this.client) {
      const opening = this.options.connect().then((client) => {
        client.on('error', (error) => {
          // A lost session has released every lock it held; the next `run` reconnects.
          if (this.client === opening) this.client = null;
          this.options.onError?.(error);
        });
        return client;
      });
      opening.catch(() => {
        if (this.client === opening) this.client = null;
      });
      this.client = opening;
    }
    return this.client;
  }

  private async acquire(key: string): Promise<void> {
    let pause = this.options.minPollMs ?? 20;
    for (;;) {
      const client = await this.connection();
      const { rows } = await client.query(TRY_LOCK, [key]);
      if (rows[0]?.ok === true) return;
      await sleep(pause);
      pause = Math.min(pause * 2, this.options.maxPollMs ?? 500);
    }
  }

  private async release(key: string): Promise<void> {
    try {
      const client = await this.connection();
      await client.query(UNLOCK, [key]);
    } catch (error) {
      // The session is gone, and its locks with it: nothing is left to release.
      this.options.onError?.(error);
    }
  }
}

/**
 * The PostgreSQL lock on `databaseUrl`, loading `pg` only now (SQLite
 * installations never load it).
 */
export async function createPgAdvisoryLock(
  databaseUrl: string,
  onError?: (error: unknown) => void,
): Promise<PgAdvisoryLock> {
  const { default: pg } = await import('pg');
  return new PgAdvisoryLock({
    connect: async () => {
      const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
      await client.connect();
      return client as unknown as AdvisoryClient;
    },
    ...(onError ? { onError } : {}),
  });
}
