import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { SEEDED_AT as AT, userRow } from '../../../test/helpers/seed-rows.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import * as identities from './identities.js';
import { insertUser } from './users.js';

const LATER = '2026-01-02T03:14:05.000Z';

function identity(id: string, userId: string, fields: Partial<identities.UserIdentityRow> = {}) {
  return {
    id,
    user_id: userId,
    provider: 'google',
    subject: `sub-${id}`,
    email: `${userId}@example.com`,
    created_at: AT,
    last_used_at: null,
    ...fields,
  };
}

describeEachDatabase('identities repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('links identities and finds them by subject and by owner', async () => {
    await insertUser(db(), userRow('u-ada'));
    await insertUser(db(), userRow('u-bob'));
    expect(await identities.hasOtherIdentity(db(), 'u-ada')).toBe(false);
    await identities.insertUserIdentity(db(), identity('i-1', 'u-ada'));
    await identities.insertUserIdentity(
      db(),
      identity('i-2', 'u-ada', { provider: 'github', created_at: LATER }),
    );
    await identities.insertUserIdentity(db(), identity('i-bob', 'u-bob'));
    await expect(
      identities.insertUserIdentity(db(), identity('i-dup', 'u-bob', { subject: 'sub-i-1' })),
    ).rejects.toThrow(/unique|duplicate/i);

    expect(await identities.findIdentityBySubject(db(), 'google', 'sub-i-1')).toEqual(
      identity('i-1', 'u-ada'),
    );
    expect(await identities.findIdentityBySubject(db(), 'github', 'sub-i-1')).toBeUndefined();
    expect(await identities.findIdentityOfUser(db(), 'i-2', 'u-ada')).toMatchObject({ provider: 'github' });
    expect(await identities.findIdentityOfUser(db(), 'i-bob', 'u-ada')).toBeUndefined();
    expect((await identities.listIdentitiesOfUser(db(), 'u-ada')).map((i) => i.id)).toEqual(['i-1', 'i-2']);
    expect(await identities.hasOtherIdentity(db(), 'u-ada', 'i-1')).toBe(true);
    expect(await identities.hasOtherIdentity(db(), 'u-bob', 'i-bob')).toBe(false);
  });

  it('records a sign-in through an identity and unlinks it', async () => {
    await identities.touchIdentity(db(), 'i-1', LATER);
    expect(await identities.findIdentityOfUser(db(), 'i-1', 'u-ada')).toMatchObject({ last_used_at: LATER });
    await identities.deleteIdentity(db(), 'i-1');
    expect((await identities.listIdentitiesOfUser(db(), 'u-ada')).map((i) => i.id)).toEqual(['i-2']);
  });

  it('takes a begun sign-in once and clears expired ones', async () => {
    const flow = {
      state_hash: 'state-1',
      provider: 'google',
      binding_hash: 'binding',
      nonce: 'nonce',
      code_verifier: 'verifier',
      created_at: AT,
      expires_at: LATER,
    };
    await identities.insertAuthFlow(db(), flow);
    await identities.insertAuthFlow(db(), { ...flow, state_hash: 'state-old', expires_at: AT });
    await identities.deleteExpiredAuthFlows(db(), AT);
    expect(await identities.takeAuthFlow(db(), 'state-old')).toBeUndefined();
    expect(await identities.takeAuthFlow(db(), 'state-1')).toEqual(flow);
    expect(await identities.takeAuthFlow(db(), 'state-1')).toBeUndefined();
  });

  it('keeps a claim until it is consumed, once', async () => {
    const claim = {
      code_hash: 'code-1',
      kind: 'signup' as const,
      provider: 'google',
      subject: 'sub-new',
      email: 'new@example.com',
      name: 'New',
      user_id: null,
      created_at: AT,
      expires_at: LATER,
      used_at: null,
    };
    await identities.insertAuthClaim(db(), claim);
    expect(await identities.findAuthClaim(db(), 'code-1')).toEqual(claim);
    expect(await identities.findAuthClaim(db(), 'code-none')).toBeUndefined();
    expect(await identities.consumeAuthClaim(db(), 'code-1', LATER)).toBe(true);
    expect(await identities.consumeAuthClaim(db(), 'code-1', LATER)).toBe(false);
    expect(await identities.findAuthClaim(db(), 'code-1')).toMatchObject({ used_at: LATER });
  });
});
