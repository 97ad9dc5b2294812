import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { SEEDED_AT as AT, userRow } from '../../../test/helpers/seed-rows.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import * as tokens from './auth-tokens.js';
import { insertUser } from './users.js';

const HOUR_LATER = '2026-01-02T04:04:05.000Z';

describeEachDatabase('auth tokens repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('spends a reset token once, and never an expired one', async () => {
    await insertUser(db(), userRow('u-ada'));
    const row = {
      token_hash: 'reset-1',
      user_id: 'u-ada',
      expires_at: HOUR_LATER,
      used_at: null,
      created_at: AT,
    };
    await tokens.insertResetToken(db(), row);
    await tokens.insertResetToken(db(), { ...row, token_hash: 'reset-old', expires_at: AT });

    expect(await tokens.spendResetToken(db(), 'reset-old', '2026-01-02T03:30:00.000Z')).toBeUndefined();
    expect(await tokens.spendResetToken(db(), 'reset-none', AT)).toBeUndefined();
    expect(await tokens.spendResetToken(db(), 'reset-1', '2026-01-02T03:30:00.000Z')).toEqual({
      user_id: 'u-ada',
    });
    expect(await tokens.spendResetToken(db(), 'reset-1', '2026-01-02T03:31:00.000Z')).toBeUndefined();
  });

  it('takes a WebSocket ticket once and clears expired ones', async () => {
    const ticket = {
      ticket_hash: 'ticket-1',
      user_id: 'u-ada',
      org_id: 'org-a',
      session_id: 's-1',
      session_epoch: 3,
      expires_at: HOUR_LATER,
    };
    await tokens.insertWsTicket(db(), ticket);
    await tokens.insertWsTicket(db(), { ...ticket, ticket_hash: 'ticket-old', expires_at: AT });
    await tokens.insertWsTicket(db(), { ...ticket, ticket_hash: 'ticket-2', session_id: null });

    await tokens.deleteExpiredWsTickets(db(), AT);
    expect(await tokens.takeWsTicket(db(), 'ticket-old')).toBeUndefined();
    expect(await tokens.takeWsTicket(db(), 'ticket-1')).toEqual(ticket);
    expect(await tokens.takeWsTicket(db(), 'ticket-1')).toBeUndefined();
    expect(await tokens.takeWsTicket(db(), 'ticket-2')).toMatchObject({ session_id: null, session_epoch: 3 });
  });
});
