import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { SEEDED_AT as AT, userRow } from '../../../test/helpers/seed-rows.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import * as apiKeys from './api-keys.js';
import { insertOrg } from './orgs.js';
import { insertUser } from './users.js';

function key(id: string, userId: string, fields: Partial<apiKeys.ApiKeyRow> = {}): apiKeys.ApiKeyRow {
  return {
    id,
    user_id: userId,
    org_id: 'org-a',
    name: `Key ${id}`,
    prefix: 'svc_live_abcdef',
    key_hash: `hash-${id}`,
    scopes: '["read"]',
    expires_at: null,
    last_used_at: null,
    created_at: AT,
    ...fields,
  };
}

describeEachDatabase('api keys repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('stores keys and finds them with their organization handle, newest first', async () => {
    await insertOrg(db(), { id: 'org-a', handle: 'acme', name: 'Acme', plan: 'free', created_at: AT });
    await insertUser(db(), userRow('u-ada', { is_platform_owner: 1 }));
    await insertUser(db(), userRow('u-bob'));
    expect(await apiKeys.userHasApiKey(db(), 'u-ada')).toBe(false);
    await apiKeys.insertApiKey(db(), key('k-1', 'u-ada'));
    await apiKeys.insertApiKey(
      db(),
      key('k-2', 'u-ada', { created_at: '2026-02-01T00:00:00.000Z', expires_at: 1893456000 }),
    );
    await apiKeys.insertApiKey(db(), key('k-bob', 'u-bob'));
    expect(await apiKeys.userHasApiKey(db(), 'u-ada')).toBe(true);

    expect(await apiKeys.findApiKeyOfUser(db(), 'k-1', 'u-ada')).toEqual({
      ...key('k-1', 'u-ada'),
      org_handle: 'acme',
    });
    expect(await apiKeys.findApiKeyOfUser(db(), 'k-bob', 'u-ada')).toBeUndefined();
    const listed = await apiKeys.listApiKeysOfUser(db(), 'u-ada');
    expect(listed.map((k) => k.id)).toEqual(['k-2', 'k-1']);
    expect(Number(listed[0]?.expires_at)).toBe(1893456000);
  });

  it('finds a key by its HMAC with its owner flag, and rotates, touches and deletes keys', async () => {
    expect(await apiKeys.findApiKeyByHash(db(), 'hash-k-1')).toMatchObject({
      id: 'k-1',
      is_platform_owner: 1,
      owner_name: 'User u-ada',
      owner_email: 'u-ada@example.com',
    });
    expect(await apiKeys.findApiKeyByHash(db(), 'hash-k-bob')).toMatchObject({
      id: 'k-bob',
      is_platform_owner: 0,
    });
    expect(await apiKeys.findApiKeyByHash(db(), 'hash-none')).toBeUndefined();

    await apiKeys.updateApiKeySecret(db(), 'k-1', { prefix: 'svc_live_zzzzzz', key_hash: 'hash-new' });
    expect(await apiKeys.findApiKeyByHash(db(), 'hash-k-1')).toBeUndefined();
    expect(await apiKeys.findApiKeyByHash(db(), 'hash-new')).toMatchObject({
      id: 'k-1',
      prefix: 'svc_live_zzzzzz',
    });

    await apiKeys.touchApiKey(db(), 'k-1', '2026-03-01T00:00:00.000Z');
    expect(await apiKeys.findApiKeyOfUser(db(), 'k-1', 'u-ada')).toMatchObject({
      last_used_at: '2026-03-01T00:00:00.000Z',
    });

    await apiKeys.deleteApiKey(db(), 'k-2');
    expect((await apiKeys.listApiKeysOfUser(db(), 'u-ada')).map((k) => k.id)).toEqual(['k-1']);
    await apiKeys.deleteApiKeysOfUser(db(), 'u-ada');
    expect(await apiKeys.listApiKeysOfUser(db(), 'u-ada')).toEqual([]);
    expect(await apiKeys.userHasApiKey(db(), 'u-bob')).toBe(true);
  });
});
