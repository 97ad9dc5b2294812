import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import type { List, Workspace } from '../api/types';

/** "1 Dec 2026": how the administration screens show a date. */
export const shortDate = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/**
 * One of a workspace's lists (`/api/v1/workspaces/<id>/<resource>`: invitations, share
 * links, versions), its URL for writes, and `refresh` to call after one.
 */
export function useWorkspaceList<T>(workspace: Workspace, resource: string) {
  const url = `/api/v1/workspaces/${workspace.id}/${resource}`;
  const key = [resource, workspace.id];
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: key,
    queryFn: () => api<List<T>>('GET', `${url}?limit=100`).then((r) => r.data),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  return { url, list, refresh };
}
