import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from './client';
import type { LinkedIdentity, List, Passkey, Providers, TreeNode, User, Workspace } from './types';

/** The signed-in user, or null when there is no session. */
export function useMe() {
  return useQuery({
    queryKey: ['me'],
    queryFn: async () => {
      try {
        return await api<User>('GET', '/api/auth/me');
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });
}

/** The workspaces the user belongs to. */
export function useWorkspaces(enabled = true) {
  return useQuery({
    queryKey: ['workspaces'],
    queryFn: () => api<List<Workspace>>('GET', '/api/v1/workspaces?limit=100').then((r) => r.data),
    enabled,
  });
}

/** One workspace's page tree. */
export function useTree(slug: string) {
  return useQuery({
    queryKey: ['tree', slug],
    queryFn: () =>
      api<{ tree: TreeNode[] }>('GET', `/api/v1/content/${encodeURIComponent(slug)}/tree`).then(
        (r) => r.tree,
      ),
  });
}

/** The identity providers and whether passkeys are on (GET /api/auth/providers). */
export function useProviders() {
  return useQuery({
    queryKey: ['providers'],
    queryFn: () => api<Providers>('GET', '/api/auth/providers'),
    staleTime: 5 * 60_000,
  });
}

/** The signed-in user's passkeys. */
export function usePasskeys(enabled = true) {
  return useQuery({
    queryKey: ['passkeys'],
    queryFn: () => api<List<Passkey>>('GET', '/api/auth/webauthn/credentials').then((r) => r.data),
    enabled,
  });
}

/** The identity-provider accounts linked to the signed-in user. */
export function useIdentities() {
  return useQuery({
    queryKey: ['identities'],
    queryFn: () => api<List<LinkedIdentity>>('GET', '/api/auth/identities').then((r) => r.data),
  });
}
