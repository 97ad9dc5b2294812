/**
 * The Cloud edition's plans: what each one
 * allows and costs. Pure data and rules, no I/O; the billing services read an
 * organization's plan and apply these figures.
 */
export const PLAN_IDS = ['free', 'team', 'business', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

/** The plans an organization can buy through Checkout; Enterprise is set by the platform owner. */
export const PURCHASABLE_PLANS = ['team', 'business'] as const;
export type PurchasablePlan = (typeof PURCHASABLE_PLANS)[number];

export const isPlanId = (value: unknown): value is PlanId => PLAN_IDS.includes(value as PlanId);

/** The counted limits; null is unlimited. */
export interface PlanQuotas {
  workspaces: number | null;
  /** Members holding an editor, admin or superadmin role in any of the organization's workspaces. */
  editors: number | null;
  /** Pages across every workspace of the organization. */
  pages: number | null;
}

export type QuotaName = keyof PlanQuotas;

export interface Plan {
  id: PlanId;
  name: string;
  /** Monthly price in cents (USD); null where it is agreed separately (Enterprise). */
  monthly_price_cents: number | null;
  currency: 'usd';
  limits: PlanQuotas;
  features: { analytics: boolean };
}

export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: {
    id: 'free',
    name: 'Free',
    monthly_price_cents: 0,
    currency: 'usd',
    limits: { workspaces: 1, editors: 3, pages: 50 },
    features: { analytics: false },
  },
  team: {
    id: 'team',
    name: 'Team',
    monthly_price_cents: 4900,
    currency: 'usd',
    limits: { workspaces: 10, editors: 25, pages: 2000 },
    features: { analytics: true },
  },
  business: {
    id: 'business',
    name: 'Business',
    monthly_price_cents: 19900,
    currency: 'usd',
    limits: { workspaces: 50, editors: 150, pages: 20000 },
    features: { analytics: true },
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    monthly_price_cents: null,
    currency: 'usd',
    limits: { workspaces: null, editors: null, pages: null },
    features: { analytics: true },
  },
};

/** The plan an organization is on; anything unknown in the database counts as Free. */
export const planOf = (value: string | null | undefined): Plan => PLANS[isPlanId(value) ? value : 'free'];

/**
 * The rate-limit buckets whose figures depend on the plan (docs/compatibility.md, Layout B's
 * tiers). The others (auth, registration, password reset, exports, the published site
 * counted per IP) are the same for everyone.
 */
export const TIERED_BUCKETS = ['contentRead', 'contentWrite', 'search', 'gitWebhook'] as const;
export type TieredBucket = (typeof TIERED_BUCKETS)[number];

/** Requests per minute by plan. Team matches the documented limits, which the Community edition keeps. */
export const RATE_TIERS: Readonly<Record<PlanId, Record<TieredBucket, number>>> = {
  free: { contentRead: 100, contentWrite: 20, search: 30, gitWebhook: 10 },
  team: { contentRead: 300, contentWrite: 60, search: 60, gitWebhook: 30 },
  business: { contentRead: 600, contentWrite: 120, search: 200, gitWebhook: 60 },
  enterprise: { contentRead: 1200, contentWrite: 300, search: 500, gitWebhook: 120 },
};

/** Stripe subscription statuses that keep the paid plan in force. */
const PAYING = new Set(['active', 'trialing']);
/**
 * Statuses that mean a renewal payment failed: the paid plan holds until the grace period
 * ends. (`incomplete` is a first payment that never succeeded: nothing was ever paid.)
 */
const IN_ARREARS = new Set(['past_due', 'unpaid']);

/** Whether a subscription status is a failed payment, for which a grace period runs. */
export const inArrears = (status: string): boolean => IN_ARREARS.has(status);

/** How long a failed payment leaves the paid plan in force before the organization falls back to Free. */
export const GRACE_PERIOD_MS = 7 * 24 * 3600 * 1000;

/**
 * The plan a subscription grants at `now`: its own plan while paid for or within the
 * grace period after a failed payment, Free otherwise. Content is never touched; only
 * the limits of the answer apply.
 */
export function planGranted(
  subscription: { plan: PlanId; status: string; grace_until: string | null },
  now: Date,
): PlanId {
  if (PAYING.has(subscription.status)) return subscription.plan;
  if (IN_ARREARS.has(subscription.status)) {
    const until = subscription.grace_until ? Date.parse(subscription.grace_until) : Number.NaN;
    return Number.isFinite(until) && now.getTime() < until ? subscription.plan : 'free';
  }
  return 'free';
}
