import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { SEEDED_AT as AT, userRow } from '../../../test/helpers/seed-rows.js';
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

  it('answers users as commits name them, one or several; nothing for unknown ids', async () => {
    await users.updateUserName(db(), 'u-ada', 'Ada Lovelace', AT);
    expect(await users.findCommitAuthor(db(), 'u-ada')).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });
    expect(await users.findCommitAuthor(db(), 'u-none')).toBeUndefined();
    const both = await users.findCommitAuthors(db(), ['u-bob', 'u-ada', 'u-none']);
    expect(both.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'u-ada', name: 'Ada Lovelace', email: 'ada@example.com' },
      { id: 'u-bob', name: 'User u-bob', email: 'bob@example.com' },
    ]);
    expect(await users.findCommitAuthors(db(), [])).toEqual([]);
  });

  it('finds users by their emails, and a live account by email', async () => {
    const found = await users.listUsersByEmails(db(), [
      'bob@example.com',
      'ada@example.com',
      'no@example.com',
    ]);
    expect(found.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'u-ada', email: 'ada@example.com', handle: 'ada' },
      { id: 'u-bob', email: 'bob@example.com', handle: 'ada-2' },
    ]);
    expect(await users.listUsersByEmails(db(), [])).toEqual([]);
    expect(await users.findLiveUserByEmail(db(), 'ada@example.com')).toEqual({
      id: 'u-ada',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      is_platform_owner: 0,
    });
    await db().updateTable('users').set({ deleted_at: AT }).where('id', '=', 'u-bob').execute();
    expect(await users.findLiveUserByEmail(db(), 'bob@example.com')).toBeUndefined();
    expect(await users.findLiveUserByEmail(db(), 'no@example.com')).toBeUndefined();
  });

  it('tells the platform owner apart', async () => {
    expect(await users.isPlatformOwner(db(), 'u-ada')).toBe(false);
    await db().updateTable('users').set({ is_platform_owner: 1 }).where('id', '=', 'u-ada').execute();
    expect(await users.isPlatformOwner(db(), 'u-ada')).toBe(true);
    expect(await users.isPlatformOwner(db(), 'u-none')).toBe(false);
  });
});
