import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { SEEDED_AT as AT, userRow } from '../../../test/helpers/seed-rows.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import * as passkeys from './passkeys.js';
import { insertUser } from './users.js';

const LATER = '2026-01-02T03:09:05.000Z';

function credential(id: string, userId: string, fields: Partial<passkeys.PasskeyCredentialRow> = {}) {
  return {
    id,
    user_id: userId,
    credential_id: `cred-${id}`,
    public_key: 'cHVibGlj',
    counter: 0,
    transports: '["internal"]',
    device_type: 'multiDevice',
    backed_up: 1 as const,
    name: `Passkey ${id}`,
    created_at: AT,
    last_used_at: null,
    ...fields,
  };
}

describeEachDatabase('passkeys repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('stores credentials and finds them by owner and by credential id', async () => {
    await insertUser(db(), userRow('u-ada'));
    await insertUser(db(), userRow('u-bob'));
    expect(await passkeys.countPasskeysOfUser(db(), 'u-ada')).toBe(0);
    expect(await passkeys.hasOtherPasskey(db(), 'u-ada')).toBe(false);
    await passkeys.insertPasskeyCredential(db(), credential('p-2', 'u-ada', { created_at: LATER }));
    await passkeys.insertPasskeyCredential(db(), credential('p-1', 'u-ada'));
    await passkeys.insertPasskeyCredential(db(), credential('p-bob', 'u-bob'));

    expect(await passkeys.findPasskeyOfUser(db(), 'p-1', 'u-ada')).toEqual(credential('p-1', 'u-ada'));
    expect(await passkeys.findPasskeyOfUser(db(), 'p-bob', 'u-ada')).toBeUndefined();
    expect(await passkeys.findPasskeyByCredentialId(db(), 'cred-p-bob')).toMatchObject({ user_id: 'u-bob' });
    expect(await passkeys.findPasskeyByCredentialId(db(), 'cred-none')).toBeUndefined();
    expect((await passkeys.listPasskeysOfUser(db(), 'u-ada')).map((p) => p.id)).toEqual(['p-1', 'p-2']);
    expect(await passkeys.countPasskeysOfUser(db(), 'u-ada')).toBe(2);
    expect(await passkeys.hasOtherPasskey(db(), 'u-ada', 'p-1')).toBe(true);
    expect(await passkeys.hasOtherPasskey(db(), 'u-bob', 'p-bob')).toBe(false);
  });

  it('records a use, renames and deletes a credential', async () => {
    await passkeys.recordPasskeyUse(db(), 'p-1', 7, LATER);
    await passkeys.renamePasskey(db(), 'p-1', 'Laptop');
    expect(await passkeys.findPasskeyOfUser(db(), 'p-1', 'u-ada')).toMatchObject({
      counter: 7,
      last_used_at: LATER,
      name: 'Laptop',
    });
    await passkeys.deletePasskey(db(), 'p-1');
    expect((await passkeys.listPasskeysOfUser(db(), 'u-ada')).map((p) => p.id)).toEqual(['p-2']);
  });

  it('takes a challenge once, only for its purpose, and clears expired ones', async () => {
    const challenge = {
      challenge: 'c-1',
      purpose: 'login' as const,
      user_id: null,
      created_at: AT,
      expires_at: LATER,
    };
    await passkeys.insertPasskeyChallenge(db(), challenge);
    await passkeys.insertPasskeyChallenge(db(), { ...challenge, challenge: 'c-old', expires_at: AT });
    await passkeys.insertPasskeyChallenge(db(), {
      ...challenge,
      challenge: 'c-reg',
      purpose: 'register',
      user_id: 'u-ada',
    });

    await passkeys.deleteExpiredPasskeyChallenges(db(), AT);
    expect(await passkeys.takePasskeyChallenge(db(), 'c-old', 'login')).toBeUndefined();
    expect(await passkeys.takePasskeyChallenge(db(), 'c-reg', 'login')).toBeUndefined();
    expect(await passkeys.takePasskeyChallenge(db(), 'c-reg', 'register')).toMatchObject({
      user_id: 'u-ada',
    });
    expect(await passkeys.takePasskeyChallenge(db(), 'c-1', 'login')).toEqual(challenge);
    expect(await passkeys.takePasskeyChallenge(db(), 'c-1', 'login')).toBeUndefined();
  });
});
