import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import {
  seedOrg,
  seedOrgMember,
  seedPage,
  seedUser,
  seedWorkspace,
  seedWorkspaceMember,
} from '../../../test/helpers/seed-rows.js';
import type { BillingSubscriptionRow } from '../schema.js';
import * as billing from './billing.js';

const AT = '2026-04-01T00:00:00.000Z';

function subscription(orgId: string, fields: Partial<BillingSubscriptionRow> = {}): BillingSubscriptionRow {
  return {
    org_id: orgId,
    stripe_customer_id: `cus_${orgId}`,
    stripe_subscription_id: `sub_${orgId}`,
    plan: 'team',
    status: 'active',
    current_period_end: null,
    cancel_at_period_end: 0,
    grace_until: null,
    state_at: 100,
    updated_at: AT,
    ...fields,
  };
}

describeEachDatabase('billing repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('finds organizations and users for billing, and sets a plan unless it is Enterprise', async () => {
    await seedOrg(db(), 'org-a', { handle: 'acme', name: 'Acme' });
    await seedOrg(db(), 'org-e', { handle: 'ent' });
    await seedUser(db(), 'u-1', { email: 'Ada@Example.test' });

    expect(await billing.findOrgForBilling(db(), { handle: 'acme' })).toEqual({
      id: 'org-a',
      handle: 'acme',
      name: 'Acme',
    });
    expect(await billing.findOrgForBilling(db(), { id: 'org-a' })).toMatchObject({ handle: 'acme' });
    expect(await billing.findOrgForBilling(db(), { handle: 'org-a' })).toBeUndefined();
    expect(await billing.orgExists(db(), 'org-a')).toBe(true);
    expect(await billing.orgExists(db(), 'org-x')).toBe(false);
    expect(await billing.findUserEmail(db(), 'u-1')).toBe('Ada@Example.test');
    expect(await billing.findUserEmail(db(), 'u-x')).toBeUndefined();

    await db().updateTable('orgs').set({ plan: 'enterprise' }).where('id', '=', 'org-e').execute();
    await billing.setOrgPlanUnlessEnterprise(db(), 'org-a', 'team');
    await billing.setOrgPlanUnlessEnterprise(db(), 'org-e', 'free');
    expect(await billing.findOrgPlanColumns(db(), 'org-a')).toMatchObject({ plan: 'team' });
    expect(await billing.findOrgPlanColumns(db(), 'org-e')).toMatchObject({ plan: 'enterprise' });
  });

  it('saves a customer, then upserts the whole subscription and lists it with its organization', async () => {
    await billing.saveStripeCustomer(db(), 'org-a', 'cus_1', AT);
    expect(await billing.findSubscriptionOfOrg(db(), 'org-a')).toMatchObject({
      stripe_customer_id: 'cus_1',
      status: 'none',
      plan: 'free',
    });
    await billing.saveStripeCustomer(db(), 'org-a', 'cus_2', '2026-04-02T00:00:00.000Z');
    expect(await billing.findOrgIdOfStripeCustomer(db(), 'cus_2')).toBe('org-a');
    expect(await billing.findOrgIdOfStripeCustomer(db(), 'cus_1')).toBeUndefined();

    const next = subscription('org-a', {
      stripe_customer_id: 'cus_2',
      updated_at: '2026-04-03T00:00:00.000Z',
    });
    await billing.upsertSubscription(db(), next);
    // PostgreSQL answers the bigint `state_at` as text, so it is compared as a number.
    const { state_at: stateAt, ...rest } = next;
    const stored = await billing.findSubscriptionOfOrg(db(), 'org-a');
    expect(stored).toMatchObject(rest);
    expect(Number(stored?.state_at)).toBe(stateAt);
    await billing.upsertSubscription(db(), subscription('org-e'));

    const listed = await billing.listSubscriptionsWithOrgs(db());
    expect(listed.map((r) => [r.org_id, r.handle, r.subscribed_plan])).toEqual([
      ['org-a', 'acme', 'team'],
      ['org-e', 'ent', 'team'],
    ]);
  });

  it('records each Stripe event once, sets its outcome, lists and prunes them', async () => {
    const event = (id: string, receivedAt: string) => ({
      id,
      type: 'invoice.paid',
      created: 1,
      org_id: null,
      outcome: 'ignored',
      received_at: receivedAt,
    });
    expect(await billing.insertStripeEventOnce(db(), event('evt_1', '2026-01-01T00:00:00.000Z'))).toBe(true);
    expect(await billing.insertStripeEventOnce(db(), event('evt_1', '2026-01-01T00:00:00.000Z'))).toBe(false);
    expect(await billing.insertStripeEventOnce(db(), event('evt_2', '2026-03-01T00:00:00.000Z'))).toBe(true);
    await billing.setStripeEventOutcome(db(), 'evt_2', 'applied');

    const recent = await billing.listRecentStripeEvents(db(), 10);
    expect(recent.map((e) => [e.id, e.outcome])).toEqual([
      ['evt_2', 'applied'],
      ['evt_1', 'ignored'],
    ]);
    await billing.deleteStripeEventsReceivedBefore(db(), '2026-02-01T00:00:00.000Z');
    expect((await billing.listRecentStripeEvents(db(), 10)).map((e) => e.id)).toEqual(['evt_2']);
  });

  it('counts seats, workspaces and pages of live workspaces only', async () => {
    await seedUser(db(), 'u-super', { email: 'super@example.test' });
    await seedUser(db(), 'u-ed', { email: 'ed@example.test' });
    await seedUser(db(), 'u-view', { email: 'view@example.test' });
    await seedOrgMember(db(), 'org-a', 'u-super', 'superadmin');
    await seedOrgMember(db(), 'org-a', 'u-ed', 'member');
    await seedWorkspace(db(), 'ws-1', 'org-a');
    await seedWorkspace(db(), 'ws-gone', 'org-a', { deletedAt: AT });
    await seedWorkspaceMember(db(), 'ws-1', 'u-ed', 'editor');
    await seedWorkspaceMember(db(), 'ws-1', 'u-view', 'viewer');
    await seedWorkspaceMember(db(), 'ws-gone', 'u-view', 'editor');
    await seedPage(db(), 'p-1', 'ws-1');
    await seedPage(db(), 'p-2', 'ws-1');
    await seedPage(db(), 'p-3', 'ws-gone');
    const invite = (id: string, fields: { expires_at?: string; revoked_at?: string | null }) => ({
      id,
      workspace_id: 'ws-1',
      email: `${id}@example.test`,
      role: 'admin',
      token_hash: id,
      invited_by: null,
      expires_at: fields.expires_at ?? '2026-05-01T00:00:00.000Z',
      accepted_at: null,
      accepted_by: null,
      revoked_at: fields.revoked_at ?? null,
      created_at: AT,
    });
    await db()
      .insertInto('invitations')
      .values([
        invite('open', {}),
        invite('expired', { expires_at: '2026-03-01T00:00:00.000Z' }),
        invite('revoked', { revoked_at: AT }),
      ])
      .execute();

    const roles = ['editor', 'admin', 'superadmin'];
    expect(await billing.listSuperAdminEmails(db(), 'org-a')).toEqual(['super@example.test']);
    expect(await billing.listWorkspaceMemberEmailsWithRoles(db(), 'org-a', roles)).toEqual([
      'ed@example.test',
    ]);
    expect(await billing.listOpenInvitationEmailsWithRoles(db(), 'org-a', roles, AT)).toEqual([
      'open@example.test',
    ]);
    expect(await billing.countLiveWorkspacesOfOrg(db(), 'org-a')).toBe(1);
    expect(await billing.countPagesOfOrg(db(), 'org-a')).toBe(2);
    expect(await billing.countPagesOfOrg(db(), 'org-e')).toBe(0);
  });
});
