import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { AT, userRow } from '../../../test/helpers/identity-rows.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import * as users from './users.js';

describeEachDatabase('users repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('knows whether anyone has registered, then finds users by id, email and handle', async () => {
    expect(await users.anyUserExists(db())).toBe(false);
    const ada = userRow('u-ada', { email: 'ada@example.com', handle: 'ada', password_hash: 'hash-a' });
    await users.insertUser(db(), ada);
    await users.insertUser(db(), userRow('u-bob', { email: 'bob@example.com', handle: 'ada-2' }));
    expect(await users.anyUserExists(db())).toBe(true);

    expect(await users.findUserById(db(), 'u-ada')).toEqual(ada);
    expect(await users.findUserByEmail(db(), 'ada@example.com')).toEqual(ada);
    expect(await users.findUserByHandle(db(), 'ada')).toEqual(ada);
    expect(await users.findUserById(db(), 'u-none')).toBeUndefined();
    expect(await users.findUserByEmail(db(), 'none@example.com')).toBeUndefined();
    expect(await users.isEmailTaken(db(), 'bob@example.com')).toBe(true);
    expect(await users.isEmailTaken(db(), 'carol@example.com')).toBe(false);
    expect(await users.findUserName(db(), 'u-bob')).toBe('User u-bob');
    expect(await users.findUserName(db(), 'u-none')).toBeUndefined();
  });

  it('refuses a second account with the same email', async () => {
    await expect(
      users.insertUser(db(), userRow('u-dup', { email: 'ada@example.com', handle: 'dup' })),
    ).rejects.toThrow(/unique|duplicate/i);
  });

  it('lists users by ids and by handles, and the handles sharing a base', async () => {
    expect((await users.listUsersByIds(db(), ['u-bob', 'u-ada', 'u-none'])).map((u) => u.id).sort()).toEqual([
      'u-ada',
      'u-bob',
    ]);
    expect(await users.listUsersByIds(db(), [])).toEqual([]);
    expect((await users.listUsersByHandles(db(), ['ada-2', 'nobody'])).map((u) => u.id)).toEqual(['u-bob']);
    expect(await users.listUsersByHandles(db(), [])).toEqual([]);
    await users.insertUser(db(), userRow('u-adam', { handle: 'adam' }));
    expect((await users.listUserHandlesLike(db(), 'ada')).sort()).toEqual(['ada', 'ada-2']);
  });

  it('updates the name, the password (clearing a lock) and the failed sign-ins', async () => {
    await users.updateUserName(db(), 'u-ada', 'Ada Lovelace', '2026-02-01T00:00:00.000Z');
    expect(await users.findUserById(db(), 'u-ada')).toMatchObject({
      name: 'Ada Lovelace',
      updated_at: '2026-02-01T00:00:00.000Z',
    });

    await users.updateSignInFailures(db(), 'u-ada', {
      failed_logins: 0,
      locked_until: '2026-02-01T00:15:00.000Z',
    });
    expect(await users.findUserById(db(), 'u-ada')).toMatchObject({
      failed_logins: 0,
      locked_until: '2026-02-01T00:15:00.000Z',
    });
    await users.updateSignInFailures(db(), 'u-ada', { failed_logins: 3, locked_until: null });
    expect(await users.findUserById(db(), 'u-ada')).toMatchObject({ failed_logins: 3, locked_until: null });

    await users.updateSignInFailures(db(), 'u-ada', { failed_logins: 2, locked_until: AT });
    await users.updateUserPassword(db(), 'u-ada', 'hash-b', '2026-02-02T00:00:00.000Z');
    expect(await users.findUserById(db(), 'u-ada')).toMatchObject({
      password_hash: 'hash-b',
      failed_logins: 0,
      locked_until: null,
      updated_at: '2026-02-02T00:00:00.000Z',
    });
    expect(await users.findUserById(db(), 'u-bob')).toMatchObject({ password_hash: null, failed_logins: 0 });
  });

  it("moves one user's session epoch on, inside a transaction too", async () => {
    await users.bumpSessionEpoch(db(), 'u-ada');
    await db()
      .transaction()
      .execute(async (trx) => users.bumpSessionEpoch(trx, 'u-ada'));
    expect((await users.findUserById(db(), 'u-ada'))?.session_epoch).toBe(2);
    expect((await users.findUserById(db(), 'u-bob'))?.session_epoch).toBe(0);
  });
});
