import type { Selectable } from 'kysely';
import type { ResetTokensTable, WsTicketsTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * Short-lived single-use tokens kept by their SHA-256 only: password reset tokens
 * (`reset_tokens`) and WebSocket tickets (`ws_tickets`).
 */

export type ResetTokenRow = Selectable<ResetTokensTable>;
export type WsTicketRow = Selectable<WsTicketsTable>;

/** Stores a newly issued reset token. */
export async function insertResetToken(db: Queryable, row: ResetTokenRow): Promise<void> {
  await db.insertInto('reset_tokens').values(row).execute();
}

/**
 * Spends the reset token with this hash if it is unused and expires after `now`; answers
 * its user, or undefined when it is unknown, used or expired. A conditional update: of two
 * concurrent spends only one succeeds.
 */
export async function spendResetToken(
  db: Queryable,
  tokenHash: string,
  now: string,
): Promise<{ user_id: string } | undefined> {
  return db
    .updateTable('reset_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
}

/** Stores a newly issued WebSocket ticket. */
export async function insertWsTicket(db: Queryable, row: WsTicketRow): Promise<void> {
  await db.insertInto('ws_tickets').values(row).execute();
}

/** Deletes every ticket (of anyone) that expired at or before `now`. */
export async function deleteExpiredWsTickets(db: Queryable, now: string): Promise<void> {
  await db.deleteFrom('ws_tickets').where('expires_at', '<=', now).execute();
}

/**
 * Deletes the ticket with this hash and answers it (expired or not): one statement, so a
 * ticket is taken once even by instances sharing the database.
 */
export function takeWsTicket(db: Queryable, ticketHash: string): Promise<WsTicketRow | undefined> {
  return db.deleteFrom('ws_tickets').where('ticket_hash', '=', ticketHash).returningAll().executeTakeFirst();
}
