import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import {
  SEEDED_AT as AT,
  seedOrg,
  seedOrgMember,
  seedPage,
  seedUser,
  seedWorkspace,
  seedWorkspaceMember,
} from '../../../test/helpers/seed-rows.js';
import type { Queryable } from './queryable.js';
import * as personal from './personal-data.js';

const LATER = '2026-09-01T00:00:00.000Z';

/** One row of each personal kind for `userId`, in organization `org-a` and workspace `ws-a`. */
async function seedPersonalRows(db: Queryable, userId: string, email: string) {
  await db
    .insertInto('sessions')
    .values({
      id: `s-${userId}`,
      user_id: userId,
      device: 'Firefox',
      ip: '192.0.2.1',
      created_at: AT,
      last_active_at: AT,
      expires_at: LATER,
      key_id: null,
    })
    .execute();
  await db
    .insertInto('refresh_tokens')
    .values({
      token_hash: `rt-${userId}`,
      session_id: `s-${userId}`,
      user_id: userId,
      expires_at: LATER,
      used_at: null,
      created_at: AT,
    })
    .execute();
  await db
    .insertInto('api_keys')
    .values({
      id: `k-${userId}`,
      user_id: userId,
      org_id: 'org-a',
      name: 'CI',
      prefix: 'fk_1234',
      key_hash: `secret-hash-${userId}`,
      scopes: '["read"]',
      expires_at: null,
      last_used_at: null,
      created_at: AT,
    })
    .execute();
  await db
    .insertInto('passkey_credentials')
    .values({
      id: `pk-${userId}`,
      user_id: userId,
      credential_id: `cred-${userId}`,
      public_key: 'public-key',
      counter: 0,
      transports: '["usb"]',
      device_type: 'singleDevice',
      backed_up: 0,
      name: 'Key',
      created_at: AT,
      last_used_at: null,
    })
    .execute();
  await db
    .insertInto('user_identities')
    .values({
      id: `id-${userId}`,
      user_id: userId,
      provider: 'github',
      subject: `gh-${userId}`,
      email,
      created_at: AT,
      last_used_at: null,
    })
    .execute();
  await db
    .insertInto('comments')
    .values({
      id: `c-${userId}`,
      workspace_id: 'ws-a',
      page_id: 'p-1',
      parent_id: null,
      author_id: userId,
      body: 'Looks good',
      mentions: '[]',
      resolved: 0,
      resolved_by: null,
      resolved_at: null,
      created_at: AT,
      updated_at: AT,
    })
    .execute();
  await db
    .insertInto('activity')
    .values({
      id: `a-${userId}`,
      workspace_id: 'ws-a',
      action: 'page_created',
      path: 'index.md',
      page_id: 'p-1',
      actor_id: userId,
      details: '{}',
      created_at: AT,
    })
    .execute();
  await db
    .insertInto('invitations')
    .values({
      id: `inv-by-${userId}`,
      workspace_id: 'ws-a',
      email: 'friend@example.test',
      role: 'editor',
      token_hash: `tok-by-${userId}`,
      invited_by: userId,
      expires_at: LATER,
      accepted_at: null,
      accepted_by: null,
      revoked_at: null,
      created_at: AT,
    })
    .execute();
  await db
    .insertInto('invitations')
    .values({
      id: `inv-to-${userId}`,
      workspace_id: 'ws-a',
      email,
      role: 'viewer',
      token_hash: `tok-to-${userId}`,
      invited_by: null,
      expires_at: LATER,
      accepted_at: null,
      accepted_by: null,
      revoked_at: null,
      created_at: AT,
    })
    .execute();
  await db
    .insertInto('user_onboarding')
    .values({ user_id: userId, steps: '{}', dismissed: 0, updated_at: AT })
    .execute();
  await db
    .insertInto('outbox')
    .values({
      id: `mail-${userId}`,
      to_address: email,
      subject: 'Hello',
      text_body: 'Hi',
      attempts: 0,
      next_attempt_at: AT,
      sent_at: null,
      last_error: null,
      created_at: AT,
    })
    .execute();
}

describeEachDatabase('personal data repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it("reads every kind of a user's personal data, and never a secret", async () => {
    await seedOrg(db(), 'org-a', { handle: 'acme' });
    await seedUser(db(), 'u-ada', { email: 'ada@example.test', name: 'Ada' });
    await seedUser(db(), 'u-bob', { email: 'bob@example.test' });
    await seedOrgMember(db(), 'org-a', 'u-ada', 'superadmin');
    await seedWorkspace(db(), 'ws-a', 'org-a', { slug: 'docs' });
    await seedWorkspaceMember(db(), 'ws-a', 'u-ada', 'admin');
    await seedPage(db(), 'p-1', 'ws-a', 'index.md');
    await seedPersonalRows(db(), 'u-ada', 'ada@example.test');
    await seedPersonalRows(db(), 'u-bob', 'bob@example.test');

    expect(await personal.findUserProfile(db(), 'u-ada')).toMatchObject({ name: 'Ada', handle: 'u-ada' });
    expect(await personal.findUserProfile(db(), 'u-ada')).not.toHaveProperty('password_hash');
    expect(await personal.findUserProfile(db(), 'u-none')).toBeUndefined();
    expect(await personal.listOrgMembershipsOfUser(db(), 'u-ada')).toEqual([
      { handle: 'acme', name: 'Org org-a', role: 'superadmin', created_at: AT },
    ]);
    expect(await personal.listWorkspaceMembershipsOfUser(db(), 'u-ada')).toEqual([
      { slug: 'docs', name: 'Workspace ws-a', org: 'acme', role: 'admin', created_at: AT },
    ]);
    expect((await personal.listSessionsOfUser(db(), 'u-ada')).map((s) => s.id)).toEqual(['s-u-ada']);
    const [key] = await personal.listApiKeysOfUser(db(), 'u-ada');
    expect(key).toMatchObject({ id: 'k-u-ada', org: 'acme', scopes: '["read"]' });
    expect(key).not.toHaveProperty('key_hash');
    const [passkey] = await personal.listPasskeysOfUser(db(), 'u-ada');
    expect(passkey).toMatchObject({ id: 'pk-u-ada', transports: '["usb"]' });
    expect(passkey).not.toHaveProperty('public_key');
    expect((await personal.listIdentitiesOfUser(db(), 'u-ada')).map((i) => i.provider)).toEqual(['github']);
    expect(await personal.listCommentsByUser(db(), 'u-ada')).toEqual([
      expect.objectContaining({ id: 'c-u-ada', workspace: 'docs', page: 'index.md', body: 'Looks good' }),
    ]);
    expect(await personal.listActivityByUser(db(), 'u-ada')).toEqual([
      expect.objectContaining({ id: 'a-u-ada', workspace: 'docs', action: 'page_created' }),
    ]);
    const sent = await personal.listInvitationsSentByUser(db(), 'u-ada');
    expect(sent.map((i) => i.id)).toEqual(['inv-by-u-ada']);
    expect(sent[0]).not.toHaveProperty('token_hash');
    expect(await personal.findOnboardingOfUser(db(), 'u-ada')).toEqual({
      steps: '{}',
      dismissed: 0,
      updated_at: AT,
    });
  });

  it('finds what blocking a deletion needs', async () => {
    expect(await personal.hasOtherSuperAdmin(db(), 'org-a', 'u-ada')).toBe(false);
    expect(await personal.countOtherPeopleInOrg(db(), 'org-a', 'u-ada')).toBe(0);
    // Bob in the organization and in one of its workspaces counts once.
    await seedOrgMember(db(), 'org-a', 'u-bob', 'member');
    await seedWorkspaceMember(db(), 'ws-a', 'u-bob', 'editor');
    expect(await personal.countOtherPeopleInOrg(db(), 'org-a', 'u-ada')).toBe(1);
    await db()
      .updateTable('org_members')
      .set({ role: 'superadmin' })
      .where('user_id', '=', 'u-bob')
      .execute();
    expect(await personal.hasOtherSuperAdmin(db(), 'org-a', 'u-ada')).toBe(true);
  });

  it("erases the user's personal rows and anonymizes the user row, leaving other users alone", async () => {
    await personal.deletePersonalRowsOfUser(db(), 'u-ada', 'ada@example.test');
    await personal.anonymizeUser(
      db(),
      'u-ada',
      { name: 'Deleted user', email: 'deleted-u-ada@deleted.invalid', handle: 'deleted-u-ada' },
      LATER,
    );

    expect(await personal.listSessionsOfUser(db(), 'u-ada')).toEqual([]);
    expect(await personal.listApiKeysOfUser(db(), 'u-ada')).toEqual([]);
    expect(await personal.listPasskeysOfUser(db(), 'u-ada')).toEqual([]);
    expect(await personal.listIdentitiesOfUser(db(), 'u-ada')).toEqual([]);
    expect(await personal.listOrgMembershipsOfUser(db(), 'u-ada')).toEqual([]);
    expect(await personal.listWorkspaceMembershipsOfUser(db(), 'u-ada')).toEqual([]);
    expect(await personal.findOnboardingOfUser(db(), 'u-ada')).toBeUndefined();
    const mail = await db().selectFrom('outbox').select('id').execute();
    expect(mail.map((m) => m.id)).toEqual(['mail-u-bob']);
    const invitations = await db().selectFrom('invitations').select('id').orderBy('id').execute();
    expect(invitations.map((i) => i.id)).toEqual(['inv-by-u-ada', 'inv-by-u-bob', 'inv-to-u-bob']);
    // What the user wrote stays, with its author.
    expect(await personal.listCommentsByUser(db(), 'u-ada')).toHaveLength(1);

    const user = await db()
      .selectFrom('users')
      .selectAll()
      .where('id', '=', 'u-ada')
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      name: 'Deleted user',
      email: 'deleted-u-ada@deleted.invalid',
      handle: 'deleted-u-ada',
      password_hash: null,
      session_epoch: 1,
      deleted_at: LATER,
    });
    expect(await personal.listSessionsOfUser(db(), 'u-bob')).toHaveLength(1);
  });
});
