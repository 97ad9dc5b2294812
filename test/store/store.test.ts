import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import { useMigratedStore } from '../helpers/migrated-store.js';

const now = () => new Date().toISOString();

describeEachDatabase('store on $name', (target) => {
  const store = useMigratedStore(target);

  it('is idempotent: migrating twice changes nothing', async () => {
    await store().migrate();
    const tables = await store().db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['users', 'workspaces', 'pages', 'activity']),
    );
  });

  it('round-trips a user and enforces the unique email', async () => {
    const user = {
      id: 'u1',
      email: 'ada@example.com',
      name: 'Ada',
      handle: 'ada',
      password_hash: null,
      is_platform_owner: 0 as const,
      session_epoch: 0,
      failed_logins: 0,
      locked_until: null,
      deleted_at: null,
      created_at: now(),
      updated_at: now(),
      terms_accepted: 1 as const,
    };
    await store().db.insertInto('users').values(user).execute();
    const row = await store()
      .db.selectFrom('users')
      .selectAll()
      .where('id', '=', 'u1')
      .executeTakeFirstOrThrow();
    expect(row).toEqual(user);
    await expect(
      store()
        .db.insertInto('users')
        .values({ ...user, id: 'u2', handle: 'ada2' })
        .execute(),
    ).rejects.toThrow();
  });

  it('enforces foreign keys', async () => {
    await expect(
      store()
        .db.insertInto('org_members')
        .values({ org_id: 'missing', user_id: 'u1', role: 'superadmin', created_at: now() })
        .execute(),
    ).rejects.toThrow();
  });

  it('rolls a failed transaction back completely', async () => {
    await expect(
      store()
        .db.transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('orgs')
            .values({ id: 'o1', handle: 'acme', name: 'Acme', plan: 'free', created_at: now() })
            .execute();
          throw new Error('abort');
        }),
    ).rejects.toThrow('abort');
    const count = await store()
      .db.selectFrom('orgs')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('answers a ping', async () => {
    await expect(store().ping()).resolves.toBeUndefined();
  });
});
