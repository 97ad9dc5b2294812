import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { seedOrg, seedWorkspace } from '../../../test/helpers/seed-rows.js';
import * as domains from './custom-domains.js';

const AT = '2026-06-01T00:00:00.000Z';
const pending = (workspaceId: string, domain: string): domains.CustomDomainRow => ({
  workspace_id: workspaceId,
  domain,
  token: `folio-verify=${workspaceId}`,
  status: 'pending',
  verified_at: null,
  checked_at: null,
  created_at: AT,
});

describeEachDatabase('custom domains repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('gives a workspace one domain, replaces it, and records checks only on the domain checked', async () => {
    await seedOrg(db(), 'org-a');
    await seedWorkspace(db(), 'ws-a', 'org-a', { slug: 'alpha' });
    await seedWorkspace(db(), 'ws-b', 'org-a', { slug: 'beta' });
    await seedWorkspace(db(), 'ws-gone', 'org-a', { slug: 'gone', deletedAt: AT });

    await domains.replaceDomainOfWorkspace(db(), pending('ws-a', 'old.example'));
    await domains.replaceDomainOfWorkspace(db(), pending('ws-a', 'docs.example'));
    expect(await domains.findDomainOfWorkspace(db(), 'ws-a')).toEqual(pending('ws-a', 'docs.example'));
    expect(await domains.findWorkspaceIdOfDomain(db(), 'docs.example')).toBe('ws-a');
    expect(await domains.findWorkspaceIdOfDomain(db(), 'old.example')).toBeUndefined();

    await domains.updateDomainCheck(db(), 'ws-a', 'old.example', { status: 'verified' });
    expect(await domains.findDomainOfWorkspace(db(), 'ws-a')).toMatchObject({ status: 'pending' });
    await domains.updateDomainCheck(db(), 'ws-a', 'docs.example', {
      status: 'verified',
      verified_at: AT,
      checked_at: AT,
    });
    expect(await domains.findDomainOfWorkspace(db(), 'ws-a')).toMatchObject({
      status: 'verified',
      verified_at: AT,
    });
  });

  it('lists verified domains of live workspaces and pending ones, and deletes a domain', async () => {
    await domains.replaceDomainOfWorkspace(db(), pending('ws-b', 'beta.example'));
    await domains.replaceDomainOfWorkspace(db(), {
      ...pending('ws-gone', 'gone.example'),
      status: 'verified',
    });

    expect(await domains.listVerifiedDomainsOfLiveWorkspaces(db())).toEqual([
      { domain: 'docs.example', slug: 'alpha' },
    ]);
    expect(await domains.isVerifiedDomainOfLiveWorkspace(db(), 'docs.example')).toBe(true);
    expect(await domains.isVerifiedDomainOfLiveWorkspace(db(), 'gone.example')).toBe(false);
    expect(await domains.isVerifiedDomainOfLiveWorkspace(db(), 'beta.example')).toBe(false);
    expect(await domains.listWorkspaceIdsWithPendingDomain(db())).toEqual(['ws-b']);

    await domains.deleteDomainOfWorkspace(db(), 'ws-a');
    expect(await domains.findDomainOfWorkspace(db(), 'ws-a')).toBeUndefined();
    expect(await domains.listVerifiedDomainsOfLiveWorkspaces(db())).toEqual([]);
  });
});
