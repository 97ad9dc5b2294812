import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../api/client';
import { platformKeys } from '../api/query-keys';

/** The shapes of `/api/v1/admin/*` (Cloud) the platform screens read. */
export const PLANS = ['free', 'team', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface OrgSummary {
  id: string;
  handle: string;
  name: string;
  plan: string;
  subscription_override: { plan: string; expires_at: string | null; note: string } | null;
  members: number;
  workspaces: number;
  created_at: string;
}

export interface AdminUser {
  id: string;
  name: string;
  email: string;
  handle: string;
  is_platform_owner: boolean;
  created_at: string;
  deleted_at: string | null;
}

export interface AuditEntry {
  id: string;
  action: string;
  actor: { id: string; name: string | null };
  target: { type: string; id: string };
  details: Record<string, unknown>;
  created_at: string;
}

export interface AdminDomain {
  domain: string;
  status: 'pending' | 'verified';
  workspace: string;
  org: string;
  checked_at: string | null;
  verified_at: string | null;
}

export interface Impersonation {
  impersonated_by: { id: string; name: string; email: string } | null;
  user: { id: string; name: string; email: string };
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
        return await api<Impersonation>('GET', '/api/v1/users/me/impersonation');
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
