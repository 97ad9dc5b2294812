import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import type { List, Workspace } from '../api/types';
import { changeRequestKeys } from '../api/query-keys';

export type RequestStatus = 'open' | 'merged' | 'closed';
export type Verdict = 'approve' | 'request_changes' | 'comment';

/** A change request as the API lists it. */
export interface ChangeRequest {
  number: number;
  title: string;
  description: string;
  status: RequestStatus;
  branch: string;
  author: string | null;
  approvals: number;
  required_approvals: number;
  created_at: string;
  merged_at: string | null;
  closed_at: string | null;
}

export interface ChangedPage {
  path: string;
  old_path: string | null;
  change: 'created' | 'updated' | 'moved' | 'deleted';
  diff: string;
}

export interface Review {
  id: string;
  verdict: Verdict;
  body: string;
  reviewer: string | null;
  reviewer_name: string | null;
  created_at: string;
  comments: { page: string; line: number; body: string }[];
}

/** One request with its pages, whole diff and reviews. */
export interface ChangeRequestDetail extends ChangeRequest {
  pages: ChangedPage[];
  diff: string;
  reviews: Review[];
}

/** `/api/v1/workspaces/<id>/change-requests`, with `rest` appended. */
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
