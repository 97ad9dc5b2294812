import { useQuery } from '@tanstack/react-query';
import type { PlanLimits, PlanList, Subscription } from '../../../src/contract/billing';
import { api, ApiError } from '../api/client';
import { billingKeys } from '../api/query-keys';

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
        return (await api<PlanList>('GET', '/api/v1/billing/plans')).data;
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
    queryFn: () => api<PlanLimits>('GET', '/api/v1/billing/limits'),
  });

export const useSubscription = (enabled: boolean) =>
  useQuery({
    queryKey: billingKeys.subscription(),
    enabled,
    retry: false,
    queryFn: () => api<Subscription>('GET', '/api/v1/billing/subscription'),
  });
