import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from './client';
import type { LinkedIdentity, Me, Passkey, SignInProviders } from '../../../src/contract/auth';
import type { TreeNode } from '../../../src/contract/pages';
import type { List, Workspace } from './types';
import { accountKeys, treeKeys, workspaceKeys } from './query-keys';

/** The signed-in user, or null when there is no session. */
export const meQuery = queryOptions({
  queryKey: accountKeys.me(),
  queryFn: async () => {
    try {
      return await api<Me>('GET', '/api/auth/me');
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 5 * 60_000,
});

export const useMe = () => useQuery(meQuery);

/** The workspaces the user belongs to. */
export const workspacesQuery = queryOptions({
  queryKey: workspaceKeys.list(),
  // Fresh for a while, so the screens mounting after the start-up request do not repeat it.
  staleTime: 30_000,
  queryFn: () => api<List<Workspace>>('GET', '/api/v1/workspaces?limit=100').then((r) => r.data),
});

export const useWorkspaces = (enabled = true) => useQuery({ ...workspacesQuery, enabled });

/** One workspace's page tree. */
export const treeQuery = (slug: string) =>
  queryOptions({
    queryKey: treeKeys.all(slug),
    // Long enough for the request made at start-up to serve the screen that mounts next;
    // after that, the workspace's events invalidate it.
    staleTime: 5_000,
    queryFn: () =>
      api<{ tree: TreeNode[] }>('GET', `/api/v1/content/${encodeURIComponent(slug)}/tree`).then(
        (r) => r.tree,
      ),
  });

export const useTree = (slug: string) => useQuery(treeQuery(slug));

/** The identity providers and whether passkeys are on (GET /api/auth/providers). */
export function useProviders() {
  return useQuery({
    queryKey: accountKeys.providers(),
    queryFn: () => api<SignInProviders>('GET', '/api/auth/providers'),
    staleTime: 5 * 60_000,
  });
}

/** The signed-in user's passkeys. */
export function usePasskeys(enabled = true) {
  return useQuery({
    queryKey: accountKeys.passkeys(),
    queryFn: () => api<List<Passkey>>('GET', '/api/auth/webauthn/credentials').then((r) => r.data),
    enabled,
  });
}

/** The identity-provider accounts linked to the signed-in user. */
export function useIdentities() {
  return useQuery({
    queryKey: accountKeys.identities(),
    queryFn: () => api<List<LinkedIdentity>>('GET', '/api/auth/identities').then((r) => r.data),
  });
}
