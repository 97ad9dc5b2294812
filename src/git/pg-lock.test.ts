import pg from 'pg';
import { ulid } from 'ulid';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, TEST_DATABASE_URL } from '../../test/helpers/databases.js';
import { eventually } from '../../test/helpers/eventually.js';
import { PgAdvisoryLock, type AdvisoryClient, type PgAdvisoryLockOptions } from './pg-lock.js';

// Each lock stands for one Folio instance: its own connections, as a second process would have.
// Advisory locks are database-wide, so every test takes keys no other run can share.

/** Longer than any test: a waiter woken in time was woken by PostgreSQL's grant, not by a timer. */
const NEVER = 60_000;

interface Instance {
  lock: PgAdvisoryLock;
  /** The application_name of its sessions, to find them in pg_stat_activity and pg_locks. */
  name: string;
  errors: unknown[];
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describeEachDatabase(
  'PgAdvisoryLock across instances ($name)',
  () => {
    const url = TEST_DATABASE_URL!;
    let admin: pg.Client;
    let instances: Instance[] = [];

    beforeAll(async () => {
      admin = new pg.Client({ connectionString: url });
      await admin.connect();
    });
    afterAll(async () => {
      await admin.end();
    });
    afterEach(async () => {
      await Promise.all(instances.map((i) => i.lock.close()));
      instances = [];
    });

    function instance(options: Partial<PgAdvisoryLockOptions> = {}, settings = ''): Instance {
      const name = `folio-lock-test-${ulid().toLowerCase()}`;
      const errors: unknown[] = [];
      const lock = new PgAdvisoryLock({
        connect: async () => {
          const client = new pg.Client({ connectionString: url, application_name: name, options: settings });
          await client.connect();
          return client as unknown as AdvisoryClient;
        },
        onError: (error) => errors.push(error),
        ...options,
      });
      const created = { lock, name, errors };
      instances.push(created);
      return created;
    }

    const keyName = () => `test-${ulid()}`;

    async function sessionsOf(who: Instance): Promise<number> {
      const { rows } = await admin.query(
        'select count(*)::int as n from pg_stat_activity where application_name = $1',
        [who.name],
      );
      return rows[0].n as number;
    }

    /** Sessions waiting in PostgreSQL's queue for `key`. */
    async function queuedOn(key: string): Promise<number> {
      const { rows } = await admin.query(
        `select count(*)::int as n from pg_locks
          where locktype = 'advisory' and not granted and objsubid = 2
            and classid = hashtext('folio.workspace')::oid and objid = hashtext($1)::oid`,
        [key],
      );
      return rows[0].n as number;
    }

    async function holderOf(key: string): Promise<number | undefined> {
      const { rows } = await admin.query(
        `select pid from pg_locks
          where locktype = 'advisory' and granted and objsubid = 2
            and classid = hashtext('folio.workspace')::oid and objid = hashtext($1)::oid`,
        [key],
      );
      return rows[0]?.pid as number | undefined;
    }

    it('lets one instance at a time hold a key, and other keys meanwhile', async () => {
      const a = instance();
      const b = instance();
      const key = keyName();
      let active = 0;
      let mostActive = 0;
      const turn = () => async () => {
        active++;
        mostActive = Math.max(mostActive, active);
        await new Promise((r) => setTimeout(r, 2 + Math.random() * 8));
        active--;
      };
      const turns: Array<Promise<void>> = [];
      for (let i = 0; i < 8; i++) turns.push(a.lock.run(key, turn()), b.lock.run(key, turn()));
      let otherKeyRan = false;
      const held = deferred();
      const holding = a.lock.run(key, () => held.promise);
      await b.lock.run(keyName(), async () => {
        otherKeyRan = true;
      });
      held.resolve();
      await Promise.all([...turns, holding]);
      expect(mostActive).toBe(1);
      expect(otherKeyRan).toBe(true);
      // Waiting connections go back once their turn is over (one spare is kept).
      expect(await sessionsOf(b)).toBeLessThanOrEqual(2);
      expect([...a.errors, ...b.errors]).toEqual([]);
    });

    it('hands the lock to the waiting instance on release, ahead of the releasing instance’s next writer', async () => {
      const slow = { queueTimeoutMs: NEVER, minPollMs: NEVER, maxPollMs: NEVER };
      const a = instance(slow);
      const b = instance(slow);
      const key = keyName();
      const order: string[] = [];
      const first = deferred();
      let releasedAt = 0;
      let acquiredAt = 0;
      const turns = [
        a.lock.run(key, async () => {
          order.push('a1');
          await first.promise;
          releasedAt = performance.now();
        }),
        a.lock.run(key, async () => void order.push('a2')),
        a.lock.run(key, async () => void order.push('a3')),
      ];
      await eventually(async () => order.includes('a1'));
      turns.push(
        b.lock.run(key, async () => {
          acquiredAt = performance.now();
          order.push('b1');
        }),
      );
      await eventually(async () => (await queuedOn(key)) === 1);
      first.resolve();
      await Promise.all(turns);
      // A had two more writers queued; B, already waiting, went first.
      expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
      // Every timer is a minute long, so B was woken by the release itself; the bound only
      // documents that (the poll this replaced slept up to 500 ms).
      expect(acquiredAt - releasedAt).toBeLessThan(200);
    });

    it('hands over when the holder’s session dies, and the holder reconnects for its next turn', async () => {
      const a = instance();
      const b = instance({ queueTimeoutMs: NEVER, minPollMs: NEVER, maxPollMs: NEVER });
      const key = keyName();
      const held = deferred();
      let aHolds = false;
      const holding = a.lock.run(key, async () => {
        aHolds = true;
        await held.promise;
      });
      await eventually(async () => aHolds);
      let bRan = false;
      const waiting = b.lock.run(key, async () => {
        bRan = true;
      });
      await eventually(async () => (await queuedOn(key)) === 1);
      const pid = await holderOf(key);
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await waiting;
      expect(bRan).toBe(true);
      await eventually(async () => a.errors.length > 0);
      // A's turn ends without the session that held its lock; releasing it is not an error.
      const reported = a.errors.length;
      held.resolve();
      await holding;
      expect(a.errors.length).toBe(reported);
      expect(await a.lock.run(key, async () => holderOf(key))).toBeDefined();
    });

    it('ends with waiters pending: they reject, and the key passes to others', async () => {
      const a = instance();
      const b = instance();
      const key = keyName();
      const held = deferred();
      let aHolds = false;
      const holding = a.lock.run(key, async () => {
        aHolds = true;
        await held.promise;
      });
      await eventually(async () => aHolds);
      const queuedInDatabase = b.lock.run(key, async () => 'ran');
      const queuedInProcess = b.lock.run(key, async () => 'ran');
      await eventually(async () => (await queuedOn(key)) === 1);
      await b.lock.close();
      await expect(queuedInDatabase).rejects.toThrow('closed');
      await expect(queuedInProcess).rejects.toThrow('closed');
      await expect(b.lock.run(keyName(), async () => 'ran')).rejects.toThrow('closed');
      held.resolve();
      await holding;
      const c = instance();
      expect(await c.lock.run(key, async () => 'ran')).toBe('ran');
      await eventually(async () => (await sessionsOf(b)) === 0);
    });

    it.each([
      ['queues again each time one wait times out', { queueTimeoutMs: 30 }, ''],
      [
        'outwaits a statement_timeout meant for queries',
        { queueTimeoutMs: NEVER },
        '-c statement_timeout=100',
      ],
    ])('%s', async (_title, queueTimeout, settings) => {
      const a = instance();
      const b = instance({ ...queueTimeout, minPollMs: NEVER, maxPollMs: NEVER }, settings);
      const key = keyName();
      let aEnded = 0;
      let bStarted = 0;
      let aHolds = false;
      const holding = a.lock.run(key, async () => {
        aHolds = true;
        await new Promise((r) => setTimeout(r, 300));
        aEnded = performance.now();
      });
      await eventually(async () => aHolds);
      await b.lock.run(key, async () => {
        bStarted = performance.now();
      });
      await holding;
      expect(bStarted).toBeGreaterThanOrEqual(aEnded);
      expect(b.errors).toEqual([]);
    });

    it('polls once its waiting connections are all in use', async () => {
      const a = instance();
      const b = instance({ maxWaitingConnections: 0, minPollMs: 5, maxPollMs: 20 });
      const key = keyName();
      let aEnded = 0;
      let bStarted = 0;
      let aHolds = false;
      const holding = a.lock.run(key, async () => {
        aHolds = true;
        await new Promise((r) => setTimeout(r, 100));
        aEnded = performance.now();
      });
      await eventually(async () => aHolds);
      await b.lock.run(key, async () => {
        bStarted = performance.now();
      });
      await holding;
      expect(bStarted).toBeGreaterThanOrEqual(aEnded);
      expect(await sessionsOf(b)).toBe(1);
    });
  },
  { only: 'postgres' },
);
