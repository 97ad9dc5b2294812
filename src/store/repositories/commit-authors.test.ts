import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { findCommitAuthor, findCommitAuthors } from './commit-authors.js';

const AT = '2026-01-02T03:04:05.000Z';

describeEachDatabase('commit authors repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('answers a user as a commit names them, and several at once; nothing for unknown ids', async () => {
    const user = (id: string, name: string) => ({
      ...{
        id,
        name,
        email: `${id}@example.com`,
        handle: id,
        password_hash: null,
        is_platform_owner: 0 as const,
      },
      ...{
        session_epoch: 0,
        failed_logins: 0,
        locked_until: null,
        created_at: AT,
        updated_at: AT,
        deleted_at: null,
      },
    });
    await db()
      .insertInto('users')
      .values([user('ada', 'Ada Lovelace'), user('bob', 'Bob')])
      .execute();

    expect(await findCommitAuthor(db(), 'ada')).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(await findCommitAuthor(db(), 'nobody')).toBeUndefined();
    const both = await findCommitAuthors(db(), ['bob', 'ada', 'nobody']);
    expect(both.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
      { id: 'bob', name: 'Bob', email: 'bob@example.com' },
    ]);
    expect(await findCommitAuthors(db(), [])).toEqual([]);
  });
});
