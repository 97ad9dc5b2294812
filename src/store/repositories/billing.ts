import type { BillingSubscriptionRow, StripeEventsTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * Billing (Cloud edition): each organization's Stripe subscription, the Stripe events
 * received, and the lookups the plan limits count with.
 */

/** The organization's stored plan and the platform owner's grant (JSON), or undefined. */
export async function findOrgPlanColumns(
  db: Queryable,
  orgId: string,
): Promise<{ plan: string; subscription_override: string | null | undefined } | undefined> {
  return db
    .selectFrom('orgs')
    .select(['plan', 'subscription_override'])
    .where('id', '=', orgId)
    .executeTakeFirst();
}

/** An organization by handle, or by id when no handle is given: what billing shows of it. */
export async function findOrgForBilling(
  db: Queryable,
  by: { handle: string } | { id: string },
): Promise<{ id: string; handle: string; name: string } | undefined> {
  const query = db.selectFrom('orgs').select(['id', 'handle', 'name']);
  return (
    'handle' in by ? query.where('handle', '=', by.handle) : query.where('id', '=', by.id)
  ).executeTakeFirst();
}

/** Whether an organization with this id exists. */
export async function orgExists(db: Queryable, orgId: string): Promise<boolean> {
  return (await db.selectFrom('orgs').select('id').where('id', '=', orgId).executeTakeFirst()) !== undefined;
}

/** A user's email as stored, or undefined for an unknown user. */
export async function findUserEmail(db: Queryable, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email;
}

/**
 * Sets `orgs.plan` to what a subscription grants, unless the organization is on Enterprise,
 * which the platform owner sets and Stripe does not change.
 */
export async function setOrgPlanUnlessEnterprise(db: Queryable, orgId: string, plan: string): Promise<void> {
  await db
    .updateTable('orgs')
    .set({ plan })
    .where('id', '=', orgId)
    .where('plan', '!=', 'enterprise')
    .execute();
}

export async function findSubscriptionOfOrg(
  db: Queryable,
  orgId: string,
): Promise<BillingSubscriptionRow | undefined> {
  return db.selectFrom('billing_subscriptions').selectAll().where('org_id', '=', orgId).executeTakeFirst();
}

/** The organization a Stripe customer belongs to, or undefined. */
export async function findOrgIdOfStripeCustomer(
  db: Queryable,
  customerId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('billing_subscriptions')
    .select('org_id')
    .where('stripe_customer_id', '=', customerId)
    .executeTakeFirst();
  return row?.org_id;
}

/** Writes the organization's whole subscription row, inserting it or replacing the stored one. */
export async function upsertSubscription(db: Queryable, row: BillingSubscriptionRow): Promise<void> {
  await db
    .insertInto('billing_subscriptions')
    .values(row)
    .onConflict((oc) => oc.column('org_id').doUpdateSet({ ...row, org_id: undefined }))
    .execute();
}

/**
 * Remembers the organization's Stripe customer: a new row with no subscription, or only the
 * customer id (and `updated_at`) changed on an existing row.
 */
export async function saveStripeCustomer(db: Queryable, orgId: string, customerId: string, at: string) {
  await db
    .insertInto('billing_subscriptions')
    .values({
      ...{ org_id: orgId, stripe_customer_id: customerId, stripe_subscription_id: null, plan: 'free' },
      ...{ status: 'none', current_period_end: null, cancel_at_period_end: 0, grace_until: null },
      ...{ state_at: 0, updated_at: at },
    })
    .onConflict((oc) => oc.column('org_id').doUpdateSet({ stripe_customer_id: customerId, updated_at: at }))
    .execute();
}

/** Every subscription with its organization, most recently changed first (the platform owner's overview). */
export async function listSubscriptionsWithOrgs(db: Queryable) {
  return db
    .selectFrom('billing_subscriptions')
    .innerJoin('orgs', 'orgs.id', 'billing_subscriptions.org_id')
    .select([
      'orgs.id as org_id',
      'orgs.handle',
      'orgs.name',
      'billing_subscriptions.plan as subscribed_plan',
      'billing_subscriptions.status',
      'billing_subscriptions.current_period_end',
      'billing_subscriptions.cancel_at_period_end',
      'billing_subscriptions.grace_until',
      'billing_subscriptions.stripe_customer_id',
      'billing_subscriptions.stripe_subscription_id',
      'billing_subscriptions.updated_at',
    ])
    .orderBy('billing_subscriptions.updated_at', 'desc')
    .execute();
}

/**
 * Records a Stripe event id once; false when it was already recorded (a resent event), so
 * its effect is not applied twice.
 */
export async function insertStripeEventOnce(db: Queryable, row: StripeEventsTable): Promise<boolean> {
  const inserted = await db
    .insertInto('stripe_events')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function setStripeEventOutcome(db: Queryable, eventId: string, outcome: string): Promise<void> {
  await db.updateTable('stripe_events').set({ outcome }).where('id', '=', eventId).execute();
}

/** Drops the events received before `before`. */
export async function deleteStripeEventsReceivedBefore(db: Queryable, before: string): Promise<void> {
  await db.deleteFrom('stripe_events').where('received_at', '<', before).execute();
}

/** The newest events received, newest first. */
export async function listRecentStripeEvents(db: Queryable, limit: number) {
  return db
    .selectFrom('stripe_events')
    .selectAll()
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Emails of the organization's Super Admins. */
export async function listSuperAdminEmails(db: Queryable, orgId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('org_members')
    .innerJoin('users', 'users.id', 'org_members.user_id')
    .select('users.email')
    .where('org_members.org_id', '=', orgId)
    .where('org_members.role', '=', 'superadmin')
    .execute();
  return rows.map((r) => r.email);
}

/** Emails of members holding one of `roles` in a live workspace of the organization. */
export async function listWorkspaceMemberEmailsWithRoles(
  db: Queryable,
  orgId: string,
  roles: readonly string[],
): Promise<string[]> {
  const rows = await db
    .selectFrom('workspace_members')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
    .innerJoin('users', 'users.id', 'workspace_members.user_id')
    .select('users.email')
    .where('workspaces.org_id', '=', orgId)
    .where('workspaces.deleted_at', 'is', null)
    .where('workspace_members.role', 'in', [...roles])
    .execute();
  return rows.map((r) => r.email);
}

/**
 * Emails invited to one of `roles` in a live workspace of the organization whose invitation
 * is still open at `at` (neither accepted, revoked nor expired).
 */
export async function listOpenInvitationEmailsWithRoles(
  db: Queryable,
  orgId: string,
  roles: readonly string[],
  at: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('invitations')
    .innerJoin('workspaces', 'workspaces.id', 'invitations.workspace_id')
    .select('invitations.email')
    .where('workspaces.org_id', '=', orgId)
    .where('workspaces.deleted_at', 'is', null)
    .where('invitations.role', 'in', [...roles])
    .where('invitations.accepted_at', 'is', null)
    .where('invitations.revoked_at', 'is', null)
    .where('invitations.expires_at', '>', at)
    .execute();
  return rows.map((r) => r.email);
}

/** How many live workspaces the organization has. */
export async function countLiveWorkspacesOfOrg(db: Queryable, orgId: string): Promise<number> {
  const row = await db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** How many pages the organization's live workspaces hold. */
export async function countPagesOfOrg(db: Queryable, orgId: string): Promise<number> {
  const row = await db
    .selectFrom('pages')
    .innerJoin('workspaces', 'workspaces.id', 'pages.workspace_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspaces.org_id', '=', orgId)
    .where('workspaces.deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
