import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { SEEDED_AT as AT, workspaceRow } from '../../../test/helpers/seed-rows.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { insertOrg } from './orgs.js';
import * as shareLinks from './share-links.js';
import * as workspaces from './workspaces.js';

const NOW = '2026-01-03T00:00:00.000Z';
const NEXT_WEEK = '2026-01-09T00:00:00.000Z';

function link(id: string, fields: Partial<shareLinks.ShareLinkRow> = {}): shareLinks.ShareLinkRow {
  return {
    id,
    workspace_id: 'ws-1',
    token_hash: `hash-${id}`,
    role: 'viewer',
    expires_at: null,
    max_uses: null,
    uses: 0,
    created_by: null,
    revoked_at: null,
    created_at: AT,
    ...fields,
  };
}

describeEachDatabase('share links repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('stores links, finds them by id and token hash, and pages through the unrevoked ones', async () => {
    await insertOrg(db(), { id: 'org-a', handle: 'acme', name: 'Acme', plan: 'free', created_at: AT });
    await workspaces.insertRow(db(), workspaceRow('ws-1', 'org-a'));
    await workspaces.insertRow(db(), workspaceRow('ws-2', 'org-a'));
    await shareLinks.insertShareLink(db(), link('l-1', { max_uses: 2 }));
    await shareLinks.insertShareLink(db(), link('l-2', { expires_at: NEXT_WEEK }));
    await shareLinks.insertShareLink(db(), link('l-3', { expires_at: AT }));
    await shareLinks.insertShareLink(db(), link('l-4', { revoked_at: AT }));
    await shareLinks.insertShareLink(db(), link('l-5', { workspace_id: 'ws-2' }));

    expect(await shareLinks.findShareLinkById(db(), 'l-1')).toEqual(link('l-1', { max_uses: 2 }));
    expect(await shareLinks.findShareLinkByTokenHash(db(), 'hash-l-4')).toMatchObject({
      id: 'l-4',
      revoked_at: AT,
    });
    expect(await shareLinks.findShareLinkByTokenHash(db(), 'hash-none')).toBeUndefined();
    const first = await shareLinks.listActiveShareLinks(db(), 'ws-1', { limit: 2 });
    expect(first.map((l) => l.id)).toEqual(['l-3', 'l-2']);
    const next = await shareLinks.listActiveShareLinks(db(), 'ws-1', { before: 'l-2', limit: 2 });
    expect(next.map((l) => l.id)).toEqual(['l-1']);
  });

  it('spends uses only while the link is unrevoked, unexpired and has uses left', async () => {
    expect(await shareLinks.spendShareLinkUse(db(), 'l-1', NOW)).toBe(true);
    expect(await shareLinks.spendShareLinkUse(db(), 'l-1', NOW)).toBe(true);
    expect(await shareLinks.spendShareLinkUse(db(), 'l-1', NOW)).toBe(false);
    expect(Number((await shareLinks.findShareLinkById(db(), 'l-1'))?.uses)).toBe(2);

    expect(await shareLinks.spendShareLinkUse(db(), 'l-2', NOW)).toBe(true);
    expect(await shareLinks.spendShareLinkUse(db(), 'l-2', NEXT_WEEK)).toBe(false);
    expect(await shareLinks.spendShareLinkUse(db(), 'l-3', NOW)).toBe(false);
    expect(await shareLinks.spendShareLinkUse(db(), 'l-4', NOW)).toBe(false);
  });

  it('revokes a link of its workspace once', async () => {
    expect(await shareLinks.revokeShareLink(db(), 'ws-2', 'l-2', NOW)).toBe(false);
    expect(await shareLinks.revokeShareLink(db(), 'ws-1', 'l-2', NOW)).toBe(true);
    expect(await shareLinks.revokeShareLink(db(), 'ws-1', 'l-2', NOW)).toBe(false);
    expect(await shareLinks.spendShareLinkUse(db(), 'l-2', NOW)).toBe(false);
    expect((await shareLinks.listActiveShareLinks(db(), 'ws-1', { limit: 10 })).map((l) => l.id)).toEqual([
      'l-3',
      'l-1',
    ]);
  });
});
