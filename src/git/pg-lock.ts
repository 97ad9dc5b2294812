/**
 * A WorkspaceLock that also holds across server instances sharing one
 * PostgreSQL database (and one DATA_DIR): a session-level advisory lock per
 * workspace, so two instances never commit, merge or write pages into the same
 * working tree at once.
 *
 * A writer that finds the lock held by another instance waits in PostgreSQL's
 * own lock queue: a blocking `pg_advisory_lock` on a connection of its own.
 * That beats both polling and LISTEN/NOTIFY on one shared connection:
 * - Fair. PostgreSQL queues blocked sessions in arrival order and, as part of
 *   the release, grants the lock to the first of them. The releasing instance's
 *   next local writer then finds it taken and queues behind, so the writers of
 *   several instances alternate with no turn counting here. With NOTIFY every
 *   release starts a race, which the releasing instance (first to know, its
 *   next writer already queued in-process) tends to win for as long as it has
 *   writers waiting.
 * - Prompt. The waiter holds the lock when its query returns: no poll
 *   interval, no notification to lose. A holder whose session dies hands over
 *   the same way, which a NOTIFY-based waiter could learn only from a poll.
 * The price is one more connection per workspace this instance is waiting on
 * (then holding, since the session that waited is the one that owns the lock),
 * capped by `maxWaitingConnections`. An uncontended lock costs a single
 * `pg_try_advisory_lock` on the shared connection, as before.
 */
import type * as Pg from 'pg';
import { KeyedLock, type WorkspaceLock } from './lock.js';
import { importPackage } from '../lib/import-package.js';

/** The part of a `pg.Client` this lock uses. */
export interface AdvisoryClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface PgAdvisoryLockOptions {
  /** Opens a connection of the lock's own (the shared one, again after it was lost, or a waiting one). */
  connect: () => Promise<AdvisoryClient>;
  /** Told when a connection fails; the locks it held are gone with it. */
  onError?: (error: unknown) => void;
  /**
   * Most connections waiting in (or holding after) PostgreSQL's queue at once; default 8.
   * Waiters past it poll, as a busy installation should not exhaust `max_connections`.
   */
  maxWaitingConnections?: number;
  /** Waiting connections kept open after use, so steady contention does not open one per write; default 1. */
  spareWaitingConnections?: number;
  /**
   * How long one blocking wait lasts before it queues again (ms); default 5000. It bounds how
   * long the waiter of an instance that vanished (host down, network cut) stays in the
   * queue: granted the lock, its session would keep it until TCP keepalive noticed, hours.
   * Queueing again sends the waiter to the back, behind at most one waiter per other instance.
   */
  queueTimeoutMs?: number;
  /** First and longest pause between two attempts of a waiter past `maxWaitingConnections` (ms). */
  minPollMs?: number;
  maxPollMs?: number;
}

// Two-key form: the first key keeps Folio's locks apart from any other application's
// advisory locks in the same database; hashtext is PostgreSQL's own stable 32-bit hash.
const TRY_LOCK = `select pg_try_advisory_lock(hashtext('folio.workspace'), hashtext($1)) as ok`;
const LOCK = `select pg_advisory_lock(hashtext('folio.workspace'), hashtext($1))`;
const UNLOCK = `select pg_advisory_unlock(hashtext('folio.workspace'), hashtext($1)) as ok`;
/** SQLSTATE lock_not_available: `lock_timeout` ended the wait. */
const LOCK_NOT_AVAILABLE = '55P03';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const closedError = () => new Error('the workspace lock is closed');

interface Connection {
  client: AdvisoryClient;
  /** Failed or ended: its session, and every lock it held, is gone. */
  lost: boolean;
}

/**
 * In-process FIFO first (KeyedLock), so an instance sends PostgreSQL one
 * contender per workspace; then `pg_try_advisory_lock` on the shared
 * connection, and if another instance holds the lock, a blocking wait in
 * PostgreSQL's queue on a waiting connection (see the file's comment). None of
 * these connections is one of the store's pool, so lock holders can never
 * starve the queries they run. A lost connection has released what it held;
 * the next `run` opens another.
 */
export class PgAdvisoryLock implements WorkspaceLock {
  private readonly local = new KeyedLock();
  private shared: Promise<Connection> | null = null;
  /** Waiting connections in use: queued for a lock, or holding the one they waited for. */
  private readonly waiting = new Set<Connection>();
  private readonly spare: Connection[] = [];
  private waitingBeingOpened = 0;
  private closed = false;

  constructor(private readonly options: PgAdvisoryLockOptions) {}

  /** See WorkspaceLock.run. */
  run<T>(workspaceId: string, fn: () => Promise<T>): Promise<T> {
    return this.local.run(workspaceId, async () => {
      const holder = await this.acquire(workspaceId);
      try {
        return await fn();
      } finally {
        await this.release(workspaceId, holder);
      }
    });
  }

  /**
   * Ends every connection; the database drops whatever they still held. Waiters
   * reject. A session of theirs still queued in PostgreSQL, if granted the lock
   * later, finds its client gone and exits, passing the lock on.
   */
  async close(): Promise<void> {
    this.closed = true;
    const shared = this.shared;
    this.shared = null;
    const others = [...this.waiting, ...this.spare.splice(0)];
    this.waiting.clear();
    await Promise.all([
      shared?.then((connection) => this.end(connection)).catch(() => undefined),
      ...others.map((connection) => this.end(connection)),
    ]);
  }

  private async acquire(key: string): Promise<Connection> {
    let pause = this.options.minPollMs ?? 20;
    let mayOpen = true;
    for (;;) {
      const shared = await this.sharedConnection();
      const { rows } = await shared.client.query(TRY_LOCK, [key]);
      if (rows[0]?.ok === true) return shared;
      const waiter = await this.checkOutWaiting(mayOpen).catch((error: unknown) => {
        if (this.closed) throw error;
        // Most likely `max_connections`: poll for this turn rather than fail the write.
        this.options.onError?.(error);
        mayOpen = false;
        return null;
      });
      if (waiter) return this.waitInQueue(waiter, key);
      await sleep(pause);
      pause = Math.min(pause * 2, this.options.maxPollMs ?? 500);
    }
  }

  private async waitInQueue(connection: Connection, key: string): Promise<Connection> {
    try {
      for (;;) {
        try {
          await connection.client.query(LOCK, [key]);
          return connection;
        } catch (error) {
          if (this.closed || (error as { code?: unknown }).code !== LOCK_NOT_AVAILABLE) throw error;
        }
      }
    } catch (error) {
      this.waiting.delete(connection);
      await this.end(connection);
      throw this.closed ? closedError() : error;
    }
  }

  private async release(key: string, holder: Connection): Promise<void> {
    let released = holder.lost;
    if (!holder.lost) {
      try {
        await holder.client.query(UNLOCK, [key]);
        released = true;
      } catch (error) {
        // The session is gone, and its locks with it: nothing is left to release.
        if (!this.closed) this.options.onError?.(error);
      }
    }
    if (!this.waiting.delete(holder)) return;
    const keep = released && !holder.lost && !this.closed;
    if (keep && this.spare.length < (this.options.spareWaitingConnections ?? 1)) this.spare.push(holder);
    else await this.end(holder);
  }

  private sharedConnection(): Promise<Connection> {
    if (this.closed) return Promise.reject(closedError());
    if (!this.shared) {
      const opening: Promise<Connection> = this.open(() => {
        if (this.shared === opening) this.shared = null;
      });
      opening.catch(() => {
        if (this.shared === opening) this.shared = null;
      });
      this.shared = opening;
    }
    return this.shared;
  }

  /** A spare waiting connection, or a new one while under the cap; null past it. */
  private async checkOutWaiting(mayOpen: boolean): Promise<Connection | null> {
    if (this.closed) throw closedError();
    const spare = this.spare.pop();
    if (spare) {
      this.waiting.add(spare);
      return spare;
    }
    const inUse = this.waiting.size + this.waitingBeingOpened;
    if (!mayOpen || inUse >= (this.options.maxWaitingConnections ?? 8)) return null;
    this.waitingBeingOpened++;
    try {
      const connection = await this.open((lost) => {
        const index = this.spare.indexOf(lost);
        if (index >= 0) this.spare.splice(index, 1);
      });
      try {
        // A role's statement_timeout, meant for queries, would otherwise fail a long wait.
        const timeout = `${this.options.queueTimeoutMs ?? 5000}ms`;
        await connection.client.query(
          `select set_config('lock_timeout', $1, false), set_config('statement_timeout', '0', false)`,
          [timeout],
        );
      } catch (error) {
        await this.end(connection);
        throw error;
      }
      if (this.closed) {
        await this.end(connection);
        throw closedError();
      }
      this.waiting.add(connection);
      return connection;
    } finally {
      this.waitingBeingOpened--;
    }
  }

  private async open(onLost: (connection: Connection) => void): Promise<Connection> {
    const client = await this.options.connect();
    const connection: Connection = { client, lost: false };
    client.on('error', (error) => {
      if (connection.lost) return;
      connection.lost = true;
      onLost(connection);
      this.options.onError?.(error);
    });
    return connection;
  }

  private async end(connection: Connection): Promise<void> {
    connection.lost = true;
    await connection.client.end().catch(() => undefined);
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
  const { default: pg } = await importPackage<typeof Pg>('pg');
  return new PgAdvisoryLock({
    connect: async () => {
      const client = new pg.Client({
        connectionString: databaseUrl,
        connectionTimeoutMillis: 5000,
        // Tells an operator looking at pg_stat_activity or pg_locks whose sessions these are.
        application_name: 'folio workspace lock',
      });
      await client.connect();
      return client as unknown as AdvisoryClient;
    },
    ...(onError ? { onError } : {}),
  });
}
