import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { SEEDED_AT as AT, userRow } from '../../../test/helpers/seed-rows.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { findOnboarding, saveOnboarding } from './user-onboarding.js';
import { insertUser } from './users.js';

describeEachDatabase('user onboarding repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('saves a checklist row and replaces it on the next save', async () => {
    await insertUser(db(), userRow('u-ada'));
    expect(await findOnboarding(db(), 'u-ada')).toBeUndefined();
    const first = { user_id: 'u-ada', steps: '{"create_page":true}', dismissed: 0 as const, updated_at: AT };
    await saveOnboarding(db(), first);
    expect(await findOnboarding(db(), 'u-ada')).toEqual(first);
    const second = {
      user_id: 'u-ada',
      steps: '{"create_page":true,"connect_git":true}',
      dismissed: 1 as const,
      updated_at: '2026-02-01T00:00:00.000Z',
    };
    await db()
      .transaction()
      .execute((trx) => saveOnboarding(trx, second));
    expect(await findOnboarding(db(), 'u-ada')).toEqual(second);
  });
});
