import { useQuery } from '@tanstack/react-query';
import type { Plan } from '../../../src/contract/billing';
import type { ImpersonationStatus } from '../../../src/contract/gdpr';
import { api, ApiError } from '../api/client';
import { platformKeys } from '../api/query-keys';

/** The plans the platform owner may set, in the order the form offers them. */
export const PLANS = ['free', 'team', 'business', 'enterprise'] as const satisfies readonly Plan['id'][];

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * Who opened this session, when the platform owner is impersonating the user; null otherwise,
 * and null on the Community edition, where the route does not exist (404).
 */
export function useImpersonation() {
  return useQuery({
    queryKey: platformKeys.impersonation(),
    queryFn: async () => {
      try {
        return await api<ImpersonationStatus>('GET', '/api/v1/users/me/impersonation');
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.status === 401)) return null;
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });
}

/** A query string from the parameters that are set. */
export function query(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** `2026-11-27T10:00:00Z` → a short local date and time. */
export const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : '—');
