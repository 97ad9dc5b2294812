import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { SEEDED_AT as AT, userRow } from '../../../test/helpers/seed-rows.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import * as sessions from './sessions.js';
import { insertUser } from './users.js';

const LATER = '2026-01-03T00:00:00.000Z';
const EXPIRES = '2026-01-09T00:00:00.000Z';

function session(id: string, userId: string, fields: Partial<sessions.SessionRow> = {}): sessions.SessionRow {
  return {
    id,
    user_id: userId,
    device: 'Firefox',
    ip: '127.0.0.1',
    created_at: AT,
    last_active_at: AT,
    expires_at: EXPIRES,
    key_id: 'key-1',
    impersonated_by: null,
    ...fields,
  };
}

describeEachDatabase('sessions repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('opens sessions and lists the live ones of a user, most recently active first', async () => {
    await insertUser(db(), userRow('u-ada'));
    await insertUser(db(), userRow('u-bob'));
    await sessions.insertSession(db(), session('s-1', 'u-ada'));
    await sessions.insertSession(db(), session('s-2', 'u-ada', { last_active_at: LATER }));
    await sessions.insertSession(db(), session('s-old-key', 'u-ada', { key_id: 'key-0' }));
    await sessions.insertSession(
      db(),
      session('s-expired', 'u-ada', { expires_at: '2026-01-02T00:00:00.000Z' }),
    );
    await sessions.insertSession(db(), session('s-bob', 'u-bob'));

    expect(await sessions.findSessionById(db(), 's-1')).toEqual(session('s-1', 'u-ada'));
    expect(await sessions.findSessionById(db(), 's-none')).toBeUndefined();
    const live = await sessions.listLiveSessionsOfUser(db(), 'u-ada', { now: LATER, keyId: 'key-1' });
    expect(live.map((s) => s.id)).toEqual(['s-2', 's-1']);
  });

  it('touches a session and says when it is gone', async () => {
    const activity = { last_active_at: LATER, ip: '10.0.0.1', device: 'Chrome' };
    expect(await sessions.touchSession(db(), 's-1', activity)).toBe(true);
    expect(await sessions.findSessionById(db(), 's-1')).toMatchObject(activity);
    expect(await sessions.touchSession(db(), 's-none', activity)).toBe(false);
  });

  it('spends a refresh token once only, and deletes the tokens and sessions of one user', async () => {
    const token = {
      token_hash: 'hash-1',
      session_id: 's-1',
      user_id: 'u-ada',
      expires_at: EXPIRES,
      used_at: null,
      created_at: AT,
    };
    await sessions.insertRefreshToken(db(), token);
    await sessions.insertRefreshToken(db(), {
      ...token,
      token_hash: 'hash-bob',
      session_id: 's-bob',
      user_id: 'u-bob',
    });
    expect(await sessions.findRefreshToken(db(), 'hash-1')).toEqual(token);
    expect(await sessions.spendRefreshToken(db(), 'hash-1', LATER)).toBe(true);
    expect(await sessions.spendRefreshToken(db(), 'hash-1', LATER)).toBe(false);
    expect(await sessions.findRefreshToken(db(), 'hash-1')).toMatchObject({ used_at: LATER });

    await db()
      .transaction()
      .execute(async (trx) => {
        await sessions.deleteRefreshTokensOfUser(trx, 'u-ada');
        await sessions.deleteSessionsOfUser(trx, 'u-ada');
      });
    expect(await sessions.findRefreshToken(db(), 'hash-1')).toBeUndefined();
    expect(await sessions.findSessionById(db(), 's-2')).toBeUndefined();
    expect(await sessions.findRefreshToken(db(), 'hash-bob')).toBeDefined();
    expect(await sessions.findSessionById(db(), 's-bob')).toBeDefined();
  });
});
