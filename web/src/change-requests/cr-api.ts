import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import type { List, Workspace } from '../api/types';
import type {
  ChangedPage,
  ChangeRequest,
  ChangeRequestDetail,
  RequestStatus,
  Review,
  Verdict,
} from '../../../src/contract/change-requests';
import { changeRequestKeys } from '../api/query-keys';

export type { ChangedPage, ChangeRequest, ChangeRequestDetail, RequestStatus, Review, Verdict };

export const requestsUrl = (workspace: Workspace, rest = '') =>
  `/api/v1/workspaces/${workspace.id}/change-requests${rest}`;

/** The workspace's requests in one state, and a refresh for after a change. */
export function useRequests(workspace: Workspace, status: RequestStatus) {
  return useQuery({
    queryKey: changeRequestKeys.list(workspace.id, status),
    queryFn: () =>
      api<List<ChangeRequest>>('GET', requestsUrl(workspace, `?status=${status}&limit=100`)).then(
        (r) => r.data,
      ),
  });
}

/** One request in full. */
export function useRequest(workspace: Workspace, number: number) {
  return useQuery({
    queryKey: changeRequestKeys.detail(workspace.id, number),
    queryFn: () => api<ChangeRequestDetail>('GET', requestsUrl(workspace, `/${number}`)),
  });
}

/** Drops every cached list and detail of the workspace's requests. */
export function useRefreshRequests(workspace: Workspace) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: changeRequestKeys.all(workspace.id) });
}
