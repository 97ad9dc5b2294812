import type { Person } from '../../../src/contract/members';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../api/client';
import type { List } from '../api/types';
import type { Comment, CommentThread, PersonRef } from '../../../src/contract/comments';
import { useEvents } from '../live/workspace-events';
import { commentKeys, workspaceKeys } from '../api/query-keys';

export type { Comment, PersonRef as UserRef };
/** A root comment with its replies in the order they were written. */
export type Thread = CommentThread;

export type { Person };

const workspaceUrl = (slug: string, rest: string) => `/api/v1/workspaces/${encodeURIComponent(slug)}${rest}`;

/** Every thread of one page (the API answers 100 threads at a time; a page rarely has more). */
async function fetchThreads(slug: string, path: string): Promise<Thread[]> {
  const threads: Thread[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ page: path, limit: '100', ...(cursor ? { cursor } : {}) });
    const answer: List<Thread> = await api('GET', workspaceUrl(slug, `/comments?${query}`));
    threads.push(...answer.data);
    cursor = answer.next_cursor;
  } while (cursor);
  return threads;
}

/**
 * The page's threads, fetched again when anyone's comment on it changes
 * (`comment-changed` over the workspace's socket).
 */
export function useThreads(slug: string, path: string) {
  const queryClient = useQueryClient();
  const events = useEvents();
  useEffect(
    () =>
      events.on((event) => {
        if (event.type === 'comment-changed' && event.path === path) {
          void queryClient.invalidateQueries({ queryKey: commentKeys.threads(slug, path) });
        }
      }),
    [events, queryClient, slug, path],
  );
  return useQuery({ queryKey: commentKeys.threads(slug, path), queryFn: () => fetchThreads(slug, path) });
}

/** The workspace's members, for `@` completion (only asked for by those who may comment). */
export function usePeople(slug: string, enabled: boolean) {
  return useQuery({
    queryKey: workspaceKeys.people(slug),
    queryFn: () => api<List<Person>>('GET', workspaceUrl(slug, '/members')).then((r) => r.data),
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** The comment calls. */
export const commentsApi = {
  create: (slug: string, input: { page: string; body: string; parent_id?: string }) =>
    api<Comment>('POST', workspaceUrl(slug, '/comments'), input),
  update: (id: string, body: string) => api<Comment>('PUT', `/api/v1/comments/${id}`, { body }),
  remove: (id: string) => api<void>('DELETE', `/api/v1/comments/${id}`),
  setResolved: (id: string, resolved: boolean) =>
    api<Comment>('POST', `/api/v1/comments/${id}/${resolved ? 'resolve' : 'unresolve'}`),
};
