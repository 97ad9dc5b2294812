import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { seedUsers } from '../../../test/helpers/seed-rows.js';
import { findCommitIdentity, findLiveUserByEmail, listUsersByEmails } from './user-refs.js';

describeEachDatabase('user refs on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('answers a user’s name and email for a commit, and nothing for an unknown user', async () => {
    await seedUsers(db(), ['u1', 'u2', 'u-gone']);
    await db()
      .updateTable('users')
      .set({ deleted_at: '2026-02-01T00:00:00.000Z' })
      .where('id', '=', 'u-gone')
      .execute();
    expect(await findCommitIdentity(db(), 'u1')).toEqual({ name: 'Name of u1', email: 'u1@example.com' });
    expect(await findCommitIdentity(db(), 'u-none')).toBeUndefined();
  });

  it('finds users by their emails, and a live account by email', async () => {
    const found = await listUsersByEmails(db(), ['u2@example.com', 'u1@example.com', 'nobody@example.com']);
    expect(found.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'u1', email: 'u1@example.com', handle: 'u1' },
      { id: 'u2', email: 'u2@example.com', handle: 'u2' },
    ]);
    expect(await listUsersByEmails(db(), [])).toEqual([]);
    expect(await findLiveUserByEmail(db(), 'u1@example.com')).toEqual({ id: 'u1', is_platform_owner: 0 });
    expect(await findLiveUserByEmail(db(), 'u-gone@example.com')).toBeUndefined();
  });
});
