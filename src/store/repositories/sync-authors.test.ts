import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { seedUsers } from '../../../test/helpers/seed-rows.js';
import { findCommitIdentity } from './sync-authors.js';

describeEachDatabase('sync authors on $name', (target) => {
  const store = useMigratedStore(target);

  it('answers a user’s name and email, and nothing for an unknown user', async () => {
    await seedUsers(store().db, ['u1']);
    expect(await findCommitIdentity(store().db, 'u1')).toEqual({
      name: 'Name of u1',
      email: 'u1@example.com',
    });
    expect(await findCommitIdentity(store().db, 'u-none')).toBeUndefined();
  });
});
