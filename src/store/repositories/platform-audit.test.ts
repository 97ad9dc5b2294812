import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { SEEDED_AT as AT, seedUser } from '../../../test/helpers/seed-rows.js';
import * as audit from './platform-audit.js';

const entry = (id: string, targetId: string, actorId = 'u-owner'): audit.AdminAuditRow => ({
  id,
  actor_id: actorId,
  action: 'org_plan_changed',
  target_type: 'org',
  target_id: targetId,
  details: '{"to":"team"}',
  created_at: AT,
});

describeEachDatabase('platform audit repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it("lists entries newest first with their actor's name, by page and by target", async () => {
    await seedUser(db(), 'u-owner', { name: 'Owner', isPlatformOwner: true });
    await audit.insertAuditEntry(db(), entry('01A', 'org-1'));
    await audit.insertAuditEntry(db(), entry('01B', 'org-2'));
    await audit.insertAuditEntry(db(), entry('01C', 'org-1', 'u-gone'));

    const all = await audit.listAuditEntries(db(), { limit: 10 });
    expect(all.map((e) => [e.id, e.actor_name])).toEqual([
      ['01C', null],
      ['01B', 'Owner'],
      ['01A', 'Owner'],
    ]);
    expect(all[1]).toMatchObject({
      action: 'org_plan_changed',
      target_type: 'org',
      details: '{"to":"team"}',
    });
    expect((await audit.listAuditEntries(db(), { limit: 1, before: '01C' })).map((e) => e.id)).toEqual([
      '01B',
    ]);
    expect((await audit.listAuditEntries(db(), { limit: 10, targetId: 'org-1' })).map((e) => e.id)).toEqual([
      '01C',
      '01A',
    ]);
  });

  it('marks a session impersonated, finds who did it, and ends it with its refresh tokens', async () => {
    await seedUser(db(), 'u-ada', { name: 'Ada', email: 'ada@example.test' });
    const session = (id: string) => ({
      id,
      user_id: 'u-ada',
      device: 'Firefox',
      ip: '192.0.2.1',
      created_at: AT,
      last_active_at: AT,
      expires_at: '2027-01-01T00:00:00.000Z',
      key_id: null,
    });
    await db()
      .insertInto('sessions')
      .values([session('s-1'), session('s-2')])
      .execute();
    await db()
      .insertInto('refresh_tokens')
      .values({
        token_hash: 'rt-1',
        session_id: 's-1',
        user_id: 'u-ada',
        expires_at: AT,
        used_at: null,
        created_at: AT,
      })
      .execute();

    expect(await audit.findImpersonatorOfSession(db(), 's-1', 'u-ada')).toBeUndefined();
    await audit.markSessionImpersonated(db(), 's-1', 'u-owner');
    expect(await audit.findImpersonatorOfSession(db(), 's-1', 'u-ada')).toEqual({
      id: 'u-owner',
      name: 'Owner',
      email: 'u-owner@example.test',
    });
    // Only the session's own user sees it as impersonated.
    expect(await audit.findImpersonatorOfSession(db(), 's-1', 'u-owner')).toBeUndefined();
    expect(await audit.findUserNameAndEmail(db(), 'u-ada')).toEqual({
      id: 'u-ada',
      name: 'Ada',
      email: 'ada@example.test',
    });
    expect(await audit.findUserNameAndEmail(db(), 'u-none')).toBeUndefined();

    await audit.deleteSessionWithRefreshTokens(db(), 's-1');
    const sessions = await db().selectFrom('sessions').select('id').execute();
    expect(sessions.map((s) => s.id)).toEqual(['s-2']);
    expect(await db().selectFrom('refresh_tokens').select('token_hash').execute()).toEqual([]);
  });
});
