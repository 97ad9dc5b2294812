import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { SEEDED_AT as AT, userRow, workspaceRow } from '../../../test/helpers/seed-rows.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import * as invitations from './invitations.js';
import { insertOrg } from './orgs.js';
import { insertUser } from './users.js';
import * as workspaces from './workspaces.js';

const NOW = '2026-01-03T00:00:00.000Z';
const NEXT_WEEK = '2026-01-09T00:00:00.000Z';

function invitation(id: string, fields: Partial<invitations.InvitationRow> = {}): invitations.InvitationRow {
  return {
    id,
    workspace_id: 'ws-1',
    email: `${id}@example.com`,
    role: 'editor',
    token_hash: `hash-${id}`,
    invited_by: 'u-ada',
    expires_at: NEXT_WEEK,
    accepted_at: null,
    accepted_by: null,
    revoked_at: null,
    created_at: AT,
    ...fields,
  };
}

describeEachDatabase('invitations repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('stores invitations, finds one by token hash and pages through the pending ones', async () => {
    await insertOrg(db(), { id: 'org-a', handle: 'acme', name: 'Acme', plan: 'free', created_at: AT });
    await workspaces.insertRow(db(), workspaceRow('ws-1', 'org-a'));
    await workspaces.insertRow(db(), workspaceRow('ws-2', 'org-a'));
    await insertUser(db(), userRow('u-ada'));
    await insertUser(db(), userRow('u-bob'));
    expect(await invitations.userHasInvited(db(), 'u-ada')).toBe(false);
    for (const id of ['inv-1', 'inv-2', 'inv-3']) await invitations.insertInvitation(db(), invitation(id));
    await invitations.insertInvitation(db(), invitation('inv-0-expired', { expires_at: AT }));
    await invitations.insertInvitation(db(), invitation('inv-4-revoked', { revoked_at: AT }));
    await invitations.insertInvitation(
      db(),
      invitation('inv-5-other', { workspace_id: 'ws-2', invited_by: null }),
    );
    expect(await invitations.userHasInvited(db(), 'u-ada')).toBe(true);
    expect(await invitations.userHasInvited(db(), 'u-bob')).toBe(false);

    expect(await invitations.findInvitationByTokenHash(db(), 'hash-inv-2')).toEqual(invitation('inv-2'));
    expect(await invitations.findInvitationByTokenHash(db(), 'hash-none')).toBeUndefined();
    const first = await invitations.listPendingInvitations(db(), 'ws-1', { now: NOW, limit: 2 });
    expect(first.map((i) => i.id)).toEqual(['inv-3', 'inv-2']);
    const next = await invitations.listPendingInvitations(db(), 'ws-1', {
      now: NOW,
      before: 'inv-2',
      limit: 2,
    });
    expect(next.map((i) => i.id)).toEqual(['inv-1']);
  });

  it('revokes open invitations of an address, or one by id, and accepts one once', async () => {
    await invitations.insertInvitation(db(), invitation('inv-6', { email: 'inv-1@example.com' }));
    await invitations.revokeOpenInvitationsOf(db(), 'ws-1', 'inv-1@example.com', NOW);
    expect(await invitations.findInvitationByTokenHash(db(), 'hash-inv-1')).toMatchObject({
      revoked_at: NOW,
    });
    expect(await invitations.findInvitationByTokenHash(db(), 'hash-inv-6')).toMatchObject({
      revoked_at: NOW,
    });
    expect(await invitations.findInvitationByTokenHash(db(), 'hash-inv-2')).toMatchObject({
      revoked_at: null,
    });

    expect(await invitations.revokeInvitation(db(), 'ws-2', 'inv-2', NOW)).toBe(false);
    expect(await invitations.revokeInvitation(db(), 'ws-1', 'inv-2', NOW)).toBe(true);
    expect(await invitations.revokeInvitation(db(), 'ws-1', 'inv-2', NOW)).toBe(false);

    expect(await invitations.acceptInvitation(db(), 'inv-2', 'u-bob', NOW)).toBe(false);
    expect(await invitations.acceptInvitation(db(), 'inv-3', 'u-bob', NOW)).toBe(true);
    expect(await invitations.acceptInvitation(db(), 'inv-3', 'u-bob', NOW)).toBe(false);
    expect(await invitations.findInvitationByTokenHash(db(), 'hash-inv-3')).toMatchObject({
      accepted_at: NOW,
      accepted_by: 'u-bob',
    });
    expect(await invitations.revokeInvitation(db(), 'ws-1', 'inv-3', NOW)).toBe(false);
    expect(await invitations.listPendingInvitations(db(), 'ws-1', { now: NOW, limit: 10 })).toEqual([]);
  });
});
