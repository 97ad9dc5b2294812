import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, ApiError } from '../api/client';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { NotFoundPage } from '../ui/not-found-page';
import { SignOutButton } from '../workspace/sign-out-button';
import type { CheckoutSession, Plan, PlanLimits, PortalSession } from '../../../src/contract/billing';
import { usePlans, useLimits, useSubscription } from './billing-api';
import '../styles/billing.css';

const LIMIT_NAMES = { workspaces: 'Workspaces', editors: 'Editor seats', pages: 'Pages' } as const;
const STATUS_TEXT: Record<string, string> = {
  none: 'No subscription',
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Payment failed',
  unpaid: 'Payment failed',
  canceled: 'Cancelled',
};

const price = (plan: Plan) =>
  plan.monthly_price_cents === null
    ? 'Custom pricing'
    : `$${(plan.monthly_price_cents / 100).toFixed(0)} a month`;
const count = (n: number | null) => (n === null ? 'unlimited' : n.toLocaleString('en-US'));
const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** Sends the browser to a Stripe page (Checkout or the Customer Portal). */
function useStripeRedirect(path: string) {
  return useMutation({
    mutationFn: (body: object) => api<CheckoutSession | PortalSession>('POST', path, body),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

/**
 * `/settings/billing` (Cloud edition): the organization's plan, its usage against the
 * plan's limits, "Upgrade to …" (Stripe Checkout) and "Manage billing" (the Customer
 * Portal). For the organization's Super Admin; the Community edition has no such page.
 */
export default function BillingPage() {
  const plans = usePlans();
  const cloud = Boolean(plans.data);
  const limits = useLimits(cloud);
  const subscription = useSubscription(cloud);
  const checkout = useStripeRedirect('/api/v1/billing/checkout');
  const portal = useStripeRedirect('/api/v1/billing/portal');
  if (plans.isPending) return <Loading />;
  if (plans.data === null) return <NotFoundPage />;
  const refused = limits.error instanceof ApiError && limits.error.status === 403;
  const current = limits.data?.plan;
  const upgrades = (plans.data ?? []).filter(
    (p) =>
      (p.id === 'team' || p.id === 'business') &&
      p.id !== current &&
      !(current === 'business' && p.id === 'team'),
  );
  const sub = subscription.data;
  return (
    <div className="app-shell">
      <header className="topbar">
        <Link to="/settings/account" className="button ghost">
          ← Account
        </Link>
        <span className="spacer" />
        <SignOutButton />
      </header>
      <main className="account-page billing-page">
        <h1>Billing</h1>
        {refused && (
          <p className="hint">Only your organization’s Super Admin manages its plan and billing.</p>
        )}
        {!refused && <FormError error={limits.error ?? subscription.error ?? plans.error} />}
        {(limits.isPending || subscription.isPending) && !refused && <Loading label="Loading the plan…" />}
        {limits.data && sub && (
          <>
            <section className="account-section" aria-labelledby="plan-heading">
              <h2 id="plan-heading">Plan</h2>
              <p className="billing-plan">
                <strong>
                  {plans.data?.find((p) => p.id === limits.data.plan)?.name ?? limits.data.plan}
                </strong>
                <span className="badge">{STATUS_TEXT[sub.status] ?? sub.status}</span>
              </p>
              {sub.grace_until && sub.status !== 'active' && (
                <p className="form-error" role="status">
                  The last payment failed. Update your payment method by {day(sub.grace_until)}, or the
                  organization moves to the Free plan (nothing is deleted).
                </p>
              )}
              {sub.current_period_end && (
                <p className="hint">
                  {sub.cancel_at_period_end ? 'Ends' : 'Renews'} on {day(sub.current_period_end)}
                </p>
              )}
              {sub.status !== 'none' && (
                <div className="item-actions">
                  <button
                    type="button"
                    className="button"
                    disabled={portal.isPending}
                    onClick={() => portal.mutate({})}
                  >
                    Manage billing
                  </button>
                </div>
              )}
              <FormError error={portal.error} />
            </section>
            <Usage limits={limits.data} />
            {upgrades.length > 0 && (
              <section className="account-section" aria-labelledby="upgrade-heading">
                <h2 id="upgrade-heading">Upgrade</h2>
                <ul className="billing-plans" aria-label="Plans">
                  {upgrades.map((plan) => (
                    <li key={plan.id} className="billing-plan-card">
                      <strong>{plan.name}</strong>
                      <span className="hint">{price(plan)}</span>
                      <span className="hint">
                        {count(plan.limits.workspaces)} workspaces · {count(plan.limits.editors)} editors ·{' '}
                        {count(plan.limits.pages)} pages · analytics
                      </span>
                      <button
                        type="button"
                        className="button primary"
                        disabled={checkout.isPending}
                        onClick={() => checkout.mutate({ plan: plan.id })}
                      >
                        Upgrade to {plan.name}
                      </button>
                    </li>
                  ))}
                </ul>
                <FormError error={checkout.error} />
              </section>
            )}
          </>
        )}
      </main>
    </div>
  );
}

/** Each limit of the plan with what the organization uses of it. */
function Usage({ limits }: { limits: PlanLimits }) {
  return (
    <section className="account-section" aria-labelledby="usage-heading">
      <h2 id="usage-heading">Usage</h2>
      <ul className="item-list" aria-label="Usage against the plan’s limits">
        {limits.limits.map((l) => {
          const label = LIMIT_NAMES[l.name];
          const of = l.limit === null ? 'unlimited' : `${l.current} of ${l.limit}`;
          return (
            <li key={l.name} className="item billing-usage">
              <div className="item-text">
                <strong>{label}</strong>
                <span className="hint">{l.limit === null ? `${l.current} (unlimited)` : of}</span>
              </div>
              {l.limit !== null && (
                <progress max={l.limit} value={Math.min(l.current, l.limit)} aria-label={`${label}: ${of}`} />
              )}
            </li>
          );
        })}
        <li className="item billing-usage">
          <div className="item-text">
            <strong>Analytics</strong>
            <span className="hint">{limits.features.analytics ? 'Included' : 'Not in this plan'}</span>
          </div>
        </li>
      </ul>
    </section>
  );
}
