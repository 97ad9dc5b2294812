import type { Selectable } from 'kysely';
import type { OutboxTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * The `outbox` table: mail waiting to be sent (`sent_at` null), with its attempts and the
 * time of its next one. A worker claims a mail by moving `next_attempt_at` ahead, so
 * workers sharing the database never send one twice.
 */

export type OutboxRow = Selectable<OutboxTable>;

/** Queues a mail. */
export async function insertMail(db: Queryable, row: OutboxRow): Promise<void> {
  await db.insertInto('outbox').values(row).execute();
}

/** Unsent mail due by `now` and tried fewer than `maxAttempts` times, oldest first, at most `limit`. */
export function listDueMail(
  db: Queryable,
  options: { now: string; maxAttempts: number; limit: number },
): Promise<OutboxRow[]> {
  return db
    .selectFrom('outbox')
    .selectAll()
    .where('sent_at', 'is', null)
    .where('attempts', '<', options.maxAttempts)
    .where('next_attempt_at', '<=', options.now)
    .orderBy('created_at')
    .limit(options.limit)
    .execute();
}

/**
 * Claims an unsent mail until `until`, only if its next attempt is still the one this
 * worker saw; false when another worker claimed or sent it first.
 */
export async function claimMail(
  db: Queryable,
  id: string,
  seenNextAttempt: string,
  until: string,
): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set({ next_attempt_at: until })
    .where('id', '=', id)
    .where('sent_at', 'is', null)
    .where('next_attempt_at', '=', seenNextAttempt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks a mail sent. */
export async function markMailSent(db: Queryable, id: string, at: string): Promise<void> {
  await db.updateTable('outbox').set({ sent_at: at }).where('id', '=', id).execute();
}

/** Records a failed attempt: the count so far, when to try again and why it failed. */
export async function recordMailFailure(
  db: Queryable,
  id: string,
  failure: Pick<OutboxRow, 'attempts' | 'next_attempt_at' | 'last_error'>,
): Promise<void> {
  await db.updateTable('outbox').set(failure).where('id', '=', id).execute();
}

/** How many mails are not sent yet (given up ones included): the backlog. */
export async function countUnsentMail(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('sent_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
