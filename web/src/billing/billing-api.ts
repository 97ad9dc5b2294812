import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../api/client';
import { billingKeys } from '../api/query-keys';

/** One plan of GET /api/v1/billing/plans. */
export interface Plan {
  id: 'free' | 'team' | 'business' | 'enterprise';
  name: string;
  monthly_price_cents: number | null;
  currency: string;
  limits: { workspaces: number | null; editors: number | null; pages: number | null };
  features: { analytics: boolean };
}

/** GET /api/v1/billing/limits. */
export interface Limits {
  org: string;
  plan: Plan['id'];
  limits: Array<{ name: 'workspaces' | 'editors' | 'pages'; limit: number | null; current: number }>;
  features: { analytics: boolean };
}

/** GET /api/v1/billing/subscription. */
export interface Subscription {
  org: string;
  plan: Plan['id'];
  status: string;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  grace_until: string | null;
}

/**
 * The plans, or null when this server has no billing: the Community edition answers 404
 * on every billing route, which is how the app knows which edition it talks to.
 */
export function usePlans() {
  return useQuery({
    queryKey: billingKeys.plans(),
    staleTime: 10 * 60_000,
    retry: false,
    queryFn: async () => {
      try {
        return (await api<{ data: Plan[] }>('GET', '/api/v1/billing/plans')).data;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

export const useLimits = (enabled: boolean) =>
  useQuery({
    queryKey: billingKeys.limits(),
    enabled,
    retry: false,
    queryFn: () => api<Limits>('GET', '/api/v1/billing/limits'),
  });

export const useSubscription = (enabled: boolean) =>
  useQuery({
    queryKey: billingKeys.subscription(),
    enabled,
    retry: false,
    queryFn: () => api<Subscription>('GET', '/api/v1/billing/subscription'),
  });
