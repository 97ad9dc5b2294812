import type { Selectable } from 'kysely';
import type { UserOnboardingTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/* `user_onboarding`: one row per user who has touched the checklist; `steps` is JSON. */

export type UserOnboardingRow = Selectable<UserOnboardingTable>;

/** The user's checklist row, if they have one. */
export function findOnboarding(db: Queryable, userId: string): Promise<UserOnboardingRow | undefined> {
  return db.selectFrom('user_onboarding').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Writes the user's checklist row, replacing the one stored. */
export async function saveOnboarding(db: Queryable, row: UserOnboardingRow): Promise<void> {
  await db
    .insertInto('user_onboarding')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ steps: row.steps, dismissed: row.dismissed, updated_at: row.updated_at }),
    )
    .execute();
}
